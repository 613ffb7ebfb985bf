import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import {
  AuthenticationError,
  DelegationRefusedError,
  ScopeWideningError,
  TokenMinter,
  type CallerIdentity,
  type NarrowedTokenCacheOptions,
  type SigningKey,
} from '../../libs/auth/src';
import { MAX_DELEGATED_TTL_SECONDS } from '../../libs/auth/src/minting/token-minter';
import { NarrowedTokenCache } from '../../libs/auth/src/minting/narrowed-token-cache';
import { ManualClock } from '../support/manual-clock';
import { devSetup, foreignKey, type DevSetup } from './auth-fixtures';

/** A whole second, so that fresh tokens' `exp` (whole seconds) equals their bound exactly when the bound is a whole second from it. */
const START_MS = 1_800_000_000_000;

const expiryMs = (token: string): number => decodeJwt(token).exp! * 1000;

describe('narrowed-token reuse (TokenMinter.narrowToken)', () => {
  let dev: DevSetup;
  let clock: ManualClock;
  let caller: CallerIdentity;

  before(async () => {
    dev = await devSetup();
  });
  after(() => dev.dir.remove());

  const minterWith = (
    cache: NarrowedTokenCacheOptions = {},
    signingKey: { getSigningKey(): Promise<SigningKey> } = dev.store,
  ) => {
    clock = new ManualClock(START_MS);
    caller = Object.freeze({
      subject: 'alice',
      scopes: Object.freeze(['a', 'b', 'c']),
      audience: 'gateway',
      issuer: 's2sp-dev',
      tokenId: 'caller-token-1',
      clientId: 'cli',
      expiresAt: new Date(START_MS + 3600_000),
      delegatedBy: Object.freeze([]),
    });
    return new TokenMinter({ issuer: 's2sp-dev', signingKey, now: clock.now, narrowedTokenCache: cache });
  };

  test('the same narrowing again returns the identical token, still a valid one for the next hop', async () => {
    const minter = minterWith();
    const first = await minter.narrowToken(caller, ['a', 'b'], 'agents', 30_000);
    clock.advance(1_500);
    const again = await minter.narrowToken(caller, ['a', 'b'], 'agents', 30_000);
    assert.equal(again, first);
    const claims = decodeJwt(again);
    assert.deepEqual([claims.sub, claims.aud, claims.scope, claims.client_id], ['alice', 'agents', 'a b', 'cli']);
    assert.deepEqual(claims.act, { sub: 'gateway' });
    assert.ok(expiryMs(again) <= clock.time + 30_000, 'within this call’s deadline');
  });

  test('a reused token never outlives the current deadline’s second: a shorter one gets a new token that respects it', async () => {
    const minter = minterWith();
    const first = await minter.narrowToken(caller, ['a'], 'agents', 30_000);
    assert.equal(
      await minter.narrowToken(caller, ['a'], 'agents', 29_500),
      first,
      'the same second: the deadline rounds up to it',
    );
    // One second shorter: the cached token would be within the slack, but past the deadline's second.
    const shorter = await minter.narrowToken(caller, ['a'], 'agents', 29_000);
    assert.notEqual(shorter, first);
    assert.equal(expiryMs(shorter), START_MS + 29_000);
    const between = await minter.narrowToken(caller, ['a'], 'agents', 28_200);
    assert.equal(between, shorter, 'reused: a fresh token’s exp (rounded up) is the same second');
  });

  test('slack boundary: reused while exp ≥ bound − slack, a new token 1 ms later', async () => {
    const minter = minterWith();
    const first = await minter.narrowToken(caller, ['a'], 'agents'); // bound: now + 15 min
    assert.equal(expiryMs(first), START_MS + MAX_DELEGATED_TTL_SECONDS * 1000);
    clock.advance(5_000);
    assert.equal(await minter.narrowToken(caller, ['a'], 'agents'), first, 'exactly 5 s short: reused');
    clock.advance(1);
    const fresh = await minter.narrowToken(caller, ['a'], 'agents');
    assert.notEqual(fresh, first, '5.001 s short: a new token');
    assert.equal(expiryMs(fresh), START_MS + 5_000 + MAX_DELEGATED_TTL_SECONDS * 1000);
  });

  test('the slack counts from the token’s own exp, rounded down to the second, not from the bound it was signed under', async () => {
    const minter = minterWith();
    clock.advance(500); // bound now + 15 min lies 500 ms past a whole second
    const first = await minter.narrowToken(caller, ['a'], 'agents');
    assert.equal(expiryMs(first), START_MS + MAX_DELEGATED_TTL_SECONDS * 1000);
    clock.time = START_MS + 5_000;
    assert.equal(await minter.narrowToken(caller, ['a'], 'agents'), first);
    clock.advance(1);
    assert.notEqual(await minter.narrowToken(caller, ['a'], 'agents'), first);
  });

  test('the slack is at most 10 % of the fresh lifetime, and configurable', async () => {
    const minter = minterWith();
    const first = await minter.narrowToken(caller, ['a'], 'agents', 20_000); // lifetime 20 s: slack 2 s
    clock.advance(2_000);
    assert.equal(await minter.narrowToken(caller, ['a'], 'agents', 20_000), first);
    clock.advance(1);
    assert.notEqual(await minter.narrowToken(caller, ['a'], 'agents', 20_000), first);

    const strict = minterWith({ reuseSlackMs: 1_000 });
    const token = await strict.narrowToken(caller, ['a'], 'agents'); // 10 % would be 90 s: the configured 1 s is smaller
    clock.advance(1_000);
    assert.equal(await strict.narrowToken(caller, ['a'], 'agents'), token);
    clock.advance(1);
    assert.notEqual(await strict.narrowToken(caller, ['a'], 'agents'), token);
  });

  test('a different scope set, next audience or caller token gets a different token', async () => {
    const minter = minterWith();
    const base = await minter.narrowToken(caller, ['a'], 'agents', 30_000);
    const variants: Array<[string, CallerIdentity, string[], string]> = [
      ['scopes', caller, ['a', 'b'], 'agents'],
      ['next audience', caller, ['a'], 'weather-server'],
      ['caller token id', { ...caller, tokenId: 'caller-token-2' }, ['a'], 'agents'],
      ['caller expiry', { ...caller, expiresAt: new Date(START_MS + 1800_000) }, ['a'], 'agents'],
      ['subject', { ...caller, subject: 'bob' }, ['a'], 'agents'],
      ['issuer', { ...caller, issuer: 'https://idp.example' }, ['a'], 'agents'],
      ['client', { ...caller, clientId: 'other-cli' }, ['a'], 'agents'],
      ['chain', { ...caller, delegatedBy: ['edge'] }, ['a'], 'agents'],
      ['verifying service', { ...caller, audience: 'gateway-eu' }, ['a'], 'agents'],
    ];
    const seen = new Set([base]);
    for (const [what, who, scopes, audience] of variants) {
      const token = await minter.narrowToken(who, scopes, audience, 30_000);
      assert.ok(!seen.has(token), `a different ${what}: a different token`);
      seen.add(token);
      const claims = decodeJwt(token);
      assert.equal(claims.sub, who.subject);
      assert.equal(claims.aud, audience);
      assert.equal(claims.scope, scopes.join(' '));
    }
    assert.equal(
      await minter.narrowToken(caller, ['a'], 'agents', 30_000),
      base,
      'the first narrowing is still cached',
    );
  });

  test('a rotated signing key gets a new token, signed with the new key', async () => {
    let current: SigningKey = await foreignKey('ES256');
    const minter = minterWith({}, { getSigningKey: async () => current });
    const first = await minter.narrowToken(caller, ['a'], 'agents');
    current = await foreignKey('ES256');
    const second = await minter.narrowToken(caller, ['a'], 'agents');
    assert.notEqual(second, first);
    assert.equal(decodeProtectedHeader(second).kid, current.kid);
  });

  test('every refusal still happens with a warm cache', async () => {
    const minter = minterWith();
    await minter.narrowToken(caller, ['a'], 'agents', 30_000);
    await assert.rejects(
      minter.narrowToken(caller, ['a', 'z'], 'agents', 30_000),
      (e: unknown) => e instanceof ScopeWideningError && e.missingScopes.join() === 'z',
    );
    await assert.rejects(
      minter.narrowToken(caller, ['a'], 'agents', 0),
      (e: unknown) => e instanceof DelegationRefusedError && e.refusal === 'deadline-passed',
    );
    await assert.rejects(minter.narrowToken(caller, ['a'], ' '), RangeError);
    clock.time = caller.expiresAt.getTime();
    await assert.rejects(
      minter.narrowToken(caller, ['a'], 'agents', 30_000),
      (e: unknown) => e instanceof AuthenticationError && e.reason === 'expired',
    );
  });

  test('maxEntries 0 signs a new token every time; the size bound evicts the least recently used', async () => {
    const off = minterWith({ maxEntries: 0 });
    assert.notEqual(await off.narrowToken(caller, ['a'], 'agents'), await off.narrowToken(caller, ['a'], 'agents'));

    const small = minterWith({ maxEntries: 1 });
    const forAgents = await small.narrowToken(caller, ['a'], 'agents');
    assert.equal(await small.narrowToken(caller, ['a'], 'agents'), forAgents);
    await small.narrowToken(caller, ['a'], 'weather-server'); // evicts the token for the agents
    assert.notEqual(await small.narrowToken(caller, ['a'], 'agents'), forAgents);
  });

  test('refuses an unusable reuse slack', () => {
    assert.throws(() => new NarrowedTokenCache({ reuseSlackMs: -1 }), /reuseSlackMs/);
    assert.throws(() => new NarrowedTokenCache({ reuseSlackMs: 60_001 }), /reuseSlackMs/);
    assert.throws(() => new NarrowedTokenCache({ maxEntries: -1 }), /maxEntries/);
  });
});
