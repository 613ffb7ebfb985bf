import assert from 'node:assert/strict';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';

/** Asserts that `fn` refuses with an S2spToolError (a caller-fixable tool error) whose message matches. */
export function refuses(fn: () => unknown, pattern: RegExp): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof S2spToolError, `expected S2spToolError, got ${String(error)}`);
    assert.match(error.message, pattern);
    return true;
  });
}
