import type * as Jose from 'jose';

let loaded: typeof Jose | undefined;

/**
 * jose, loaded by the first token verifier or minter made (while an app with `auth` starts, so its
 * first request does not wait for it), or the first time a key is handled: an app that never
 * verifies nor mints a token (S2spModule without `auth`) does not load it
 * (test/s2sp/lazy-modules.test.ts).
 */
export function jose(): typeof Jose {
  loaded ??= require('jose') as typeof Jose;
  return loaded;
}
