import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countTokens } from '@s2sp/protocol';

test('countTokens counts o200k_base tokens', () => {
  assert.equal(countTokens(''), 0);
  assert.equal(countTokens('hello world'), 2);
});

test('special-token markers in untrusted data are counted as text, not refused', () => {
  const text = 'before <|endoftext|> after';
  assert.ok(countTokens(text) > countTokens('before  after'));
});
