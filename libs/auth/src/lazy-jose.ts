import type * as Jose from 'jose';

let loaded: typeof Jose | undefined;

/**
 * jose, loaded the first time a token or key is handled: while an app with `auth` starts
 * (./warm-up/auth-warm-up.ts), so its first request does not wait for it; never in an app without
 * `auth` (test/s2sp/lazy-modules.test.ts).
 */
export function jose(): typeof Jose {
  loaded ??= require('jose') as typeof Jose;
  return loaded;
}
