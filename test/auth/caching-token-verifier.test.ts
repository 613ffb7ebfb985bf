import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { createLocalJWKSet, errors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from 'jose';
import {
  AuthenticationError,
  CachingTokenVerifier,
  JwtTokenVerifier,
  type CachingTokenVerifierOptions,
  type KeySet,
  type SigningKey,
} from '../../libs/auth/src';
import { createKeySet } from '../../libs/auth/src/identity/key-set';
import { ManualClock } from '../support/manual-clock';
import { devSetup, foreignKey, goodClaims, jwksOf, nowSeconds, signRaw, type DevSetup } from './auth-fixtures';

/** A key set that counts its key lookups: jose looks the key up once per signature it checks. */
class CountingKeySet implements KeySet {
  lookups = 0;

  constructor(private inner: KeySet) {}

  readonly getKey: JWTVerifyGetKey = (header, token) => {
    this.lookups += 1;
    return this.inner.getKey(header, token);
  };

  refresh(): Promise<boolean> {
    return this.inner.refresh();
  }

  /** Trusts exactly `jwks` from now on (a key added to, or removed from, the JWKS). */
  replaceKeys(jwks: JSONWebKeySet): void {
    this.inner = { getKey: createLocalJWKSet(jwks), refresh: async () => false };
  }
}

function isAuthenticationError(reason: string) {
  return (error: unknown) => error instanceof AuthenticationError && error.reason === reason;
}

describe('CachingTokenVerifier', () => {
  let dev: DevSetup;
  let trusted: SigningKey;
  let clock: ManualClock;

  before(async () => {
    dev = await devSetup();
    trusted = await dev.store.getSigningKey();
  });
  after(() => dev.dir.remove());

  /** A caching verifier for `gateway` over the dev key, on a clock the test moves (starting at the real time: jose checks against it). */
  const cachingVerifier = (
    options: CachingTokenVerifierOptions & { clockToleranceSeconds?: number; keys?: CountingKeySet } = {},
  ) => {
    const {
      clockToleranceSeconds,
      keys = new CountingKeySet(createKeySet({ kind: 'dev', store: dev.store })),
      ...cacheOptions
    } = options;
    clock = new ManualClock(Date.now());
    const inner = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: dev.store.issuer,
      keys,
      ...(clockToleranceSeconds !== undefined ? { clockToleranceSeconds } : {}),
    });
    return { verifier: new CachingTokenVerifier(inner, { now: clock.now, ...cacheOptions }), keys };
  };

  test('a repeated token skips the signature check and yields the very same frozen identity', async () => {
    const { verifier, keys } = cachingVerifier();
    const token = await dev.minter.mint({
      subject: 'alice',
      scopes: ['weather:read'],
      audience: 'gateway',
      ttlSeconds: 600,
    });
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    assert.equal(keys.lookups, 1, 'one signature check for two verifications');
    assert.equal(second, first);
    assert.ok(Object.isFrozen(second) && Object.isFrozen(second.scopes));
    assert.equal(second.subject, 'alice');
  });

  test('the cache holds a digest of the token, never the token itself', async () => {
    const { verifier } = cachingVerifier();
    const token = await dev.minter.mint({ subject: 'alice', scopes: [], audience: 'gateway', ttlSeconds: 600 });
    await verifier.verify(token);
    const everything = inspect(verifier, { depth: Infinity, maxArrayLength: Infinity, maxStringLength: Infinity });
    assert.ok(everything.includes('alice'), 'the inspection does show the cached identity');
    for (const part of token.split('.')) assert.ok(!everything.includes(part), 'no part of the token is held');
  });

  test('a hit refuses an expired token at the very instant jose would, for each clock tolerance', async () => {
    const exp = nowSeconds() + 5;
    const token = await signRaw(trusted, goodClaims('gateway', { exp }));
    for (const tolerance of [0, 30]) {
      const limitMs = (exp + tolerance) * 1000;
      for (const offsetMs of [-1_000, -1, 0, 1, 999, 1_000]) {
        const { verifier, keys } = cachingVerifier({ clockToleranceSeconds: tolerance });
        await verifier.verify(token);
        clock.time = limitMs + offsetMs;
        const joseAccepts = await jwtVerify(token, keys.getKey, {
          currentDate: new Date(clock.time),
          clockTolerance: tolerance,
        }).then(
          () => true,
          (error: unknown) => (error instanceof errors.JWTExpired ? false : Promise.reject(error)),
        );
        const lookupsBefore = keys.lookups;
        if (joseAccepts) {
          assert.equal(
            (await verifier.verify(token)).subject,
            'alice',
            `accepted at exp + ${tolerance} s ${offsetMs} ms`,
          );
        } else {
          await assert.rejects(
            verifier.verify(token),
            isAuthenticationError('expired'),
            `refused at exp + ${tolerance} s ${offsetMs} ms`,
          );
        }
        assert.equal(keys.lookups, lookupsBefore, 'decided by the cache, without a signature check');
        assert.equal(joseAccepts, offsetMs < 0, 'jose accepts until exp + tolerance');
      }
    }
  });

  test('each set of accepted audiences is a separate entry', async () => {
    const { verifier, keys } = cachingVerifier();
    const both = await signRaw(trusted, goodClaims('gateway', { aud: ['gateway', 'agents'] }));
    const asGateway = await verifier.verify(both);
    const asAgents = await verifier.verify(both, { audience: 'agents' });
    assert.equal(asGateway.audience, 'gateway');
    assert.equal(asAgents.audience, 'agents');
    assert.equal(keys.lookups, 2);
    assert.equal(await verifier.verify(both), asGateway);
    assert.equal(
      await verifier.verify(both, { audience: ['agents'] }),
      asAgents,
      'a string and a one-item list are the same audiences',
    );
    assert.equal(keys.lookups, 2);

    const gatewayOnly = await signRaw(trusted, goodClaims('gateway'));
    await verifier.verify(gatewayOnly);
    await assert.rejects(
      verifier.verify(gatewayOnly, { audience: 'agents' }),
      isAuthenticationError('wrong-audience'),
      'not accepted elsewhere for being cached',
    );
  });

  test('at the size bound the least recently used token is evicted', async () => {
    const { verifier, keys } = cachingVerifier({ maxEntries: 2 });
    const [a, b, c] = await Promise.all(
      ['a', 'b', 'c'].map((subject) => signRaw(trusted, goodClaims('gateway', { sub: subject }))),
    );
    await verifier.verify(a);
    await verifier.verify(b);
    await verifier.verify(a); // a is now the most recently used
    await verifier.verify(c); // evicts b
    assert.equal(keys.lookups, 3);
    await verifier.verify(a);
    await verifier.verify(c);
    assert.equal(keys.lookups, 3, 'a and c are still cached');
    await verifier.verify(b);
    assert.equal(keys.lookups, 4, 'b was evicted');
  });

  test('an entry is honoured for maxAgeMs at most: a key removed from the JWKS stops being accepted', async () => {
    const rotated = await foreignKey('ES256');
    const keys = new CountingKeySet({ getKey: createLocalJWKSet(jwksOf(rotated)), refresh: async () => false });
    const { verifier } = cachingVerifier({ maxAgeMs: 1_000, keys });
    const token = await signRaw(rotated, goodClaims());
    await verifier.verify(token);
    keys.replaceKeys({ keys: [] });
    clock.advance(999);
    assert.equal((await verifier.verify(token)).subject, 'alice', 'still within the max age');
    assert.equal(keys.lookups, 1);
    clock.advance(1);
    await assert.rejects(verifier.verify(token), isAuthenticationError('unknown-key'));
    assert.equal(keys.lookups, 2, 'verified again after the max age');
  });

  test('maxEntries 0 turns the cache off', async () => {
    const { verifier, keys } = cachingVerifier({ maxEntries: 0 });
    const token = await signRaw(trusted, goodClaims());
    const first = await verifier.verify(token);
    const second = await verifier.verify(token);
    assert.equal(keys.lookups, 2);
    assert.notEqual(second, first);
    await assert.rejects(
      verifier.verify(token, { audience: 'agents' }),
      isAuthenticationError('wrong-audience'),
      'the call options still apply',
    );
  });

  test('failures are not cached: a token refused before is checked again', async () => {
    const late = await foreignKey('ES256');
    const keys = new CountingKeySet({ getKey: createLocalJWKSet({ keys: [] }), refresh: async () => false });
    const { verifier } = cachingVerifier({ keys });
    const token = await signRaw(late, goodClaims());
    await assert.rejects(verifier.verify(token), isAuthenticationError('unknown-key'));
    await assert.rejects(verifier.verify(token), isAuthenticationError('unknown-key'));
    assert.equal(keys.lookups, 2);
    keys.replaceKeys(jwksOf(late));
    assert.equal((await verifier.verify(token)).subject, 'alice', 'accepted once its key is trusted');
    await assert.rejects(verifier.verify(''), isAuthenticationError('missing-token'));
  });

  test('refuses unusable options', () => {
    const inner = dev.verifier('gateway');
    assert.throws(() => new CachingTokenVerifier(inner, { maxEntries: -1 }), /maxEntries/);
    assert.throws(() => new CachingTokenVerifier(inner, { maxEntries: 1.5 }), /maxEntries/);
    assert.throws(() => new CachingTokenVerifier(inner, { maxAgeMs: 0 }), /maxAgeMs/);
    assert.throws(() => new CachingTokenVerifier(inner, { maxAgeMs: 15 * 60_000 + 1 }), /maxAgeMs/);
  });
});
