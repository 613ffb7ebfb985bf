import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadOptionalPackage } from '@s2sp/platform/internal';

test('a missing optional package fails with an error naming it, the feature that needs it and how to install it', () => {
  for (const specifier of ['s2sp-no-such-package', 's2sp-no-such-package/lite']) {
    assert.throws(
      () => loadOptionalPackage('s2sp-no-such-package', 'The feature', () => require(specifier) as unknown),
      (error: Error) =>
        error.message ===
        'The feature needs the package "s2sp-no-such-package", which is not installed. Install it: npm install s2sp-no-such-package',
    );
  }
});

test('an installed package is returned, and any other failure while loading it is rethrown unchanged', () => {
  assert.equal(
    loadOptionalPackage('node:path', 'Paths', () => require('node:path') as typeof import('node:path')).sep,
    '/',
  );
  const broken = new Error('the package threw while loading');
  assert.throws(
    () =>
      loadOptionalPackage('x', 'X', () => {
        throw broken;
      }),
    (error) => error === broken,
  );
  // A dependency of the package that is missing is not the package missing: its own message stays.
  assert.throws(
    () => loadOptionalPackage('present-package', 'X', () => require('s2sp-missing-dependency') as unknown),
    /Cannot find module 's2sp-missing-dependency'/,
  );
});
