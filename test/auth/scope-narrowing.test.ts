import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { decodeJwt } from 'jose';
import {
  AuthenticationError,
  DelegationRefusedError,
  narrowScopes,
  ScopeWideningError,
  TokenMinter,
  type CallerIdentity,
} from '../../libs/auth/src';
import { splitScopes } from '../../libs/auth/src/internal';
import { MAX_DELEGATED_TTL_SECONDS } from '../../libs/auth/src/minting/token-minter';
import { MAX_DELEGATION_DEPTH } from '../../libs/auth/src/identity/delegation';
import { mulberry32 } from '../../libs/platform/src';
import { devSetup, randomSubset, type DevSetup } from './auth-fixtures';

describe('scope narrowing', () => {
  let dev: DevSetup;
  before(async () => {
    dev = await devSetup();
  });
  after(() => dev.dir.remove());

  const lifetime = (token: string): number => {
    const { iat, exp } = decodeJwt(token);
    return exp! - iat!;
  };

  test('the downstream token holds caller ∩ needed, for the next audience, on behalf of the original caller', async () => {
    const caller = await dev.identity('alice', ['weather:read', 'stats:chart', 'admin'], 'gateway');
    const token = await dev.minter.narrowToken(caller, ['weather:read', 'stats:chart', 'weather:read'], 'agents');
    const downstream = await dev.verifier('agents').verify(token);
    assert.equal(downstream.subject, 'alice');
    assert.deepEqual(downstream.scopes, ['weather:read', 'stats:chart']);
    assert.equal(downstream.audience, 'agents');
    assert.deepEqual(downstream.delegatedBy, ['gateway']);
    assert.deepEqual(decodeJwt(token).act, { sub: 'gateway' });
    await assert.rejects(dev.verifier('gateway').verify(token), AuthenticationError, 'not valid for the previous hop');
  });

  test('each hop appends itself to the delegation chain (RFC 8693 act, newest outermost)', async () => {
    const atGateway = await dev.identity('alice', ['weather:read', 's2sp:data:read'], 'gateway');
    const atAgents = await dev
      .verifier('agents')
      .verify(await dev.minter.narrowToken(atGateway, ['weather:read', 's2sp:data:read'], 'agents'));
    const token = await dev.minter.narrowToken(atAgents, ['weather:read'], 'weather-server');
    const atWeather = await dev.verifier('weather-server').verify(token);
    assert.deepEqual(atWeather.delegatedBy, ['gateway', 'agents']);
    assert.deepEqual(decodeJwt(token).act, { sub: 'agents', act: { sub: 'gateway' } });
    assert.deepEqual(atWeather.scopes, ['weather:read']);
  });

  test('refuses to widen, naming the scopes the caller lacks', async () => {
    const caller = await dev.identity('bob', ['weather:read'], 'gateway');
    await assert.rejects(
      dev.minter.narrowToken(caller, ['weather:read', 'stats:chart', 'admin'], 'agents'),
      (error: unknown) => {
        assert.ok(error instanceof ScopeWideningError);
        assert.deepEqual(error.missingScopes, ['stats:chart', 'admin']);
        assert.match(error.message, /stats:chart, admin/);
        assert.equal(error.jsonRpcCode, 4002);
        return true;
      },
    );
  });

  test('TTL: at most 15 minutes, ends with the remaining deadline, at most the caller token', async () => {
    const longLived = await dev.identity('alice', ['a'], 'gateway', 24 * 3600);
    assert.equal(lifetime(await dev.minter.narrowToken(longLived, ['a'], 'agents')), MAX_DELEGATED_TTL_SECONDS);
    assert.equal(
      lifetime(await dev.minter.narrowToken(longLived, ['a'], 'agents', 60 * 60 * 1000)),
      MAX_DELEGATED_TTL_SECONDS,
    );

    const fixedNow = 1_800_000_000_500; // .5 s into a second
    const minter = new TokenMinter({ issuer: 's2sp-dev', signingKey: dev.store, now: () => fixedNow });
    const caller: CallerIdentity = { ...longLived, expiresAt: new Date(fixedNow + 3600_000) };
    for (const remaining of [1, 400, 999, 5_000, 30_000, 899_000]) {
      const { iat, exp } = decodeJwt(await minter.narrowToken(caller, ['a'], 'agents', remaining));
      assert.equal(iat, 1_800_000_000);
      assert.ok(exp! * 1000 >= fixedNow + remaining, `valid until the deadline of ${remaining} ms`);
      assert.ok(exp! * 1000 < fixedNow + remaining + 1000, `expires within the deadline's second for ${remaining} ms`);
    }
    const shortCaller: CallerIdentity = { ...caller, expiresAt: new Date(fixedNow + 90_000) };
    const { exp } = decodeJwt(await minter.narrowToken(shortCaller, ['a'], 'agents'));
    assert.ok(exp! * 1000 <= shortCaller.expiresAt.getTime(), 'never outlives the caller token');
  });

  test('a deadline a few hundred ms ahead reaches the next hop as a deadline, never as expired credentials', async () => {
    // The gateway narrows for the agents, the agents for the MCP server: each hop's caller
    // token was capped by the same deadline, and must not expire before the deadline does.
    const gatewayCaller = await dev.identity('alice', ['a'], 'gateway');
    const secondStart = Math.floor(Date.now() / 1000) * 1000 + 10_000;
    for (const offsetMs of [0, 1, 500, 699, 700, 999]) {
      let time = secondStart + offsetMs;
      const minter = new TokenMinter({
        issuer: 's2sp-dev',
        signingKey: dev.store,
        now: () => time,
        narrowedTokenCache: { maxEntries: 0 },
      });
      const deadline = time + 300;
      const forAgents = await minter.narrowToken(gatewayCaller, ['a'], 'agents', deadline - time);
      const atAgents: CallerIdentity = {
        ...gatewayCaller,
        audience: 'agents',
        delegatedBy: ['gateway'],
        expiresAt: new Date(decodeJwt(forAgents).exp! * 1000),
      };
      time = deadline - 1;
      const forServer = decodeJwt(await minter.narrowToken(atAgents, ['a'], 'weather-server', deadline - time));
      assert.ok(forServer.exp! * 1000 >= deadline, `at .${offsetMs} s: the last hop's token lasts until the deadline`);
      time = deadline;
      await assert.rejects(
        minter.narrowToken(atAgents, ['a'], 'weather-server', deadline - time),
        (e: unknown) => e instanceof DelegationRefusedError && e.refusal === 'deadline-passed',
        `at .${offsetMs} s: once the deadline passes, the refusal is the deadline's`,
      );
    }
  });

  test('no downstream token after the deadline, for an expired caller, or past the longest chain', async () => {
    const caller = await dev.identity('alice', ['a'], 'gateway');
    await assert.rejects(
      dev.minter.narrowToken(caller, ['a'], 'agents', 0),
      (e: unknown) => e instanceof DelegationRefusedError && e.refusal === 'deadline-passed',
    );
    await assert.rejects(dev.minter.narrowToken(caller, ['a'], 'agents', -5), DelegationRefusedError);
    await assert.rejects(
      dev.minter.narrowToken({ ...caller, expiresAt: new Date(Date.now() - 1) }, ['a'], 'agents'),
      (e: unknown) => e instanceof AuthenticationError && e.reason === 'expired',
    );
    const deep: CallerIdentity = {
      ...caller,
      delegatedBy: Array.from({ length: MAX_DELEGATION_DEPTH }, (_, i) => `svc-${i}`),
    };
    await assert.rejects(
      dev.minter.narrowToken(deep, ['a'], 'agents'),
      (e: unknown) => e instanceof DelegationRefusedError && e.refusal === 'chain-too-long',
    );
  });

  test('mint() validates its input', async () => {
    await assert.rejects(dev.minter.mint({ subject: '', scopes: [], audience: 'a', ttlSeconds: 60 }), /subject/);
    await assert.rejects(
      dev.minter.mint({ subject: 's', scopes: ['has space'], audience: 'a', ttlSeconds: 60 }),
      /invalid scope/,
    );
    await assert.rejects(dev.minter.mint({ subject: 's', scopes: [], audience: 'a', ttlSeconds: 0 }), /ttlSeconds/);
    await assert.rejects(
      dev.minter.mint({ subject: 's', scopes: [], audience: 'a', ttlSeconds: 10 ** 9 }),
      /ttlSeconds/,
    );
  });

  test('property: narrowScopes never grants what was not held, and grants exactly what was needed and held', () => {
    const universe = Array.from({ length: 16 }, (_, i) => `scope:${i}`);
    const random = mulberry32(0x5eed);
    for (let i = 0; i < 20_000; i += 1) {
      const held = randomSubset(random, universe, random());
      const needed = randomSubset(random, universe, random());
      const { granted, missing } = narrowScopes(held, needed);
      assert.ok(
        granted.every((s) => held.includes(s) && needed.includes(s)),
        'granted ⊆ held ∩ needed',
      );
      assert.ok(
        missing.every((s) => !held.includes(s) && needed.includes(s)),
        'missing = needed \\ held',
      );
      assert.deepEqual([...granted, ...missing].sort(), [...new Set(needed)].sort(), 'granted ∪ missing = needed');
    }
  });

  test('property: signed downstream tokens are never wider than the caller, over random scope sets and chains', async () => {
    const universe = Array.from({ length: 12 }, (_, i) => `s${i}`);
    const random = mulberry32(20251122);
    const base = await dev.identity('carol', [], 'gateway');
    const hops = ['gateway', 'agents', 'weather-server', 'stats-server'];
    for (let i = 0; i < 150; i += 1) {
      let caller: CallerIdentity = { ...base, scopes: randomSubset(random, universe, random()) };
      const original = new Set(caller.scopes);
      for (let hop = 1; hop < hops.length; hop += 1) {
        const needed = randomSubset(random, universe, random() * 0.6);
        const widening = needed.filter((scope) => !caller.scopes.includes(scope));
        if (widening.length > 0) {
          await assert.rejects(
            dev.minter.narrowToken(caller, needed, hops[hop]),
            (e: unknown) => e instanceof ScopeWideningError && e.missingScopes.join() === [...new Set(widening)].join(),
          );
          break;
        }
        const token = await dev.minter.narrowToken(caller, needed, hops[hop]);
        const scopes = splitScopes(String(decodeJwt(token).scope));
        assert.ok(
          scopes.every((scope) => caller.scopes.includes(scope)),
          'narrowed ⊆ caller',
        );
        assert.ok(
          scopes.every((scope) => original.has(scope)),
          'narrowed ⊆ original caller',
        );
        assert.deepEqual([...scopes].sort(), [...new Set(needed)].sort());
        caller = await dev.verifier(hops[hop]).verify(token);
        assert.deepEqual(caller.delegatedBy, hops.slice(0, hop));
      }
    }
  });
});
