import assert from 'node:assert/strict';
import { test } from 'node:test';
import { python3SkipReason } from '../support/python';
import { withEnv } from '../support/with-env';

test('without python3 the interop tests skip saying why, unless S2SP_REQUIRE_PYTHON=1 (as in CI) makes it a failure', () => {
  withEnv({ PATH: '/nonexistent', S2SP_REQUIRE_PYTHON: undefined }, () => {
    assert.match(python3SkipReason() ?? '', /^python3 is not available/);
  });
  withEnv({ PATH: '/nonexistent', S2SP_REQUIRE_PYTHON: '1' }, () => {
    assert.throws(
      () => python3SkipReason(),
      /required here \(S2SP_REQUIRE_PYTHON=1: install python3 and python3-venv\)/,
    );
  });
});
