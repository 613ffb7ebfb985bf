import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { s2spLimitsFromEnv } from '@s2sp/core';
import { DEFAULT_LIMITS } from '../../libs/s2sp/src/config/s2sp-options';
import { S2SP_LIMIT_ENV } from '../../libs/s2sp/src/config/limits-from-env';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.values(S2SP_LIMIT_ENV)) delete process.env[name];
  Object.assign(process.env, saved);
});

test('every data-plane limit is configurable by environment, defaults otherwise', () => {
  assert.deepEqual(s2spLimitsFromEnv(), DEFAULT_LIMITS);
  process.env.S2SP_MAX_ROW_IDS_PER_FETCH = '10';
  process.env.S2SP_MAX_REQUEST_BYTES = '2048';
  const limits = s2spLimitsFromEnv();
  assert.equal(limits.maxRowIdsPerFetch, 10);
  assert.equal(limits.maxRequestBytes, 2048);
  assert.equal(limits.maxRows, DEFAULT_LIMITS.maxRows);
});

test('a limit that is not a positive integer fails the start, naming the variable', () => {
  for (const value of ['0', '-1', 'lots', '1.5']) {
    process.env.S2SP_MAX_COLUMNS_PER_REQUEST = value;
    assert.throws(() => s2spLimitsFromEnv(), /S2SP_MAX_COLUMNS_PER_REQUEST/);
  }
});
