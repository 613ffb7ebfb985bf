import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { utimesSync, writeFileSync } from 'node:fs';
import { exportJWK, type JWK } from 'jose';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  AuthenticationError,
  JwtTokenVerifier,
  type AuthenticationFailureReason,
  type SigningKey,
} from '../../libs/auth/src';
import { AUTHENTICATION_FAILED_MESSAGE } from '../../libs/auth/src/errors/authentication-error';
import { createKeySet } from '../../libs/auth/src/identity/key-set';
import {
  devSetup,
  foreignKey,
  goodClaims,
  hs256WithPublicKey,
  jwksOf,
  nowSeconds,
  signRaw,
  tempDir,
  unsecuredToken,
  type DevSetup,
} from './auth-fixtures';

/** Asserts the one public failure, a specific server-side reason, and no trace of the token. */
async function rejectsWith(
  promise: Promise<unknown>,
  reason: AuthenticationFailureReason,
  token?: string,
): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof AuthenticationError, `expected AuthenticationError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    assert.equal(error.message, AUTHENTICATION_FAILED_MESSAGE);
    assert.deepEqual(error.getResponse(), {
      error: { code: 'UNAUTHENTICATED', message: AUTHENTICATION_FAILED_MESSAGE },
    });
    const visible = `${String(error)} ${JSON.stringify(error)} ${JSON.stringify(error.getResponse())} ${error.stack ?? ''}`;
    if (token) assert.ok(!visible.includes(token), 'the token never appears in the error');
    if (!AUTHENTICATION_FAILED_MESSAGE.toLowerCase().includes(reason))
      assert.ok(!visible.includes(reason), 'the reason is not in anything serialized');
    assert.ok(!/"reason"/.test(visible), 'no reason field is serialized');
    return true;
  });
}

describe('JwtTokenVerifier with the dev key', () => {
  let dev: DevSetup;
  let trusted: SigningKey;
  let verifier: JwtTokenVerifier;

  before(async () => {
    dev = await devSetup();
    trusted = await dev.store.getSigningKey();
    verifier = dev.verifier('gateway');
  });
  after(() => dev.dir.remove());

  test('a good token yields the caller identity', async () => {
    const token = await dev.minter.mint({
      subject: 'alice',
      scopes: ['weather:read', 'stats:chart'],
      audience: 'gateway',
      ttlSeconds: 600,
      clientId: 'cli',
    });
    const identity = await verifier.verify(token);
    assert.equal(identity.subject, 'alice');
    assert.deepEqual(identity.scopes, ['weather:read', 'stats:chart']);
    assert.equal(identity.audience, 'gateway');
    assert.equal(identity.issuer, 's2sp-dev');
    assert.equal(identity.clientId, 'cli');
    assert.match(identity.tokenId ?? '', /^[0-9a-f-]{36}$/);
    assert.deepEqual(identity.delegatedBy, []);
    assert.ok(Math.abs(identity.expiresAt.getTime() - (Date.now() + 600_000)) < 5_000);
    assert.ok(!JSON.stringify(identity).includes(token), 'the identity does not carry the token');
  });

  test('scopes come from `scope` (space-separated) or an `scp` array; a list `aud` matches any accepted audience', async () => {
    const scp = await signRaw(trusted, goodClaims('gateway', { scope: undefined, scp: ['x', 'y', 'x'] }));
    assert.deepEqual((await verifier.verify(scp)).scopes, ['x', 'y']);
    const spaced = await signRaw(trusted, goodClaims('gateway', { scope: '  a   b ' }));
    assert.deepEqual((await verifier.verify(spaced)).scopes, ['a', 'b']);
    const none = await signRaw(trusted, goodClaims('gateway', { scope: undefined }));
    assert.deepEqual((await verifier.verify(none)).scopes, []);
    const many = await signRaw(trusted, goodClaims(undefined, { aud: ['other', 'gateway'] }));
    assert.equal((await verifier.verify(many)).audience, 'gateway');
  });

  test('clock tolerance: recently expired (within 30 s) still passes, the configured tolerance is honoured', async () => {
    const now = nowSeconds();
    const justExpired = await signRaw(trusted, goodClaims('gateway', { exp: now - 10 }));
    assert.equal((await verifier.verify(justExpired)).subject, 'alice');
    await rejectsWith(
      dev.verifier('gateway', { clockToleranceSeconds: 0 }).verify(justExpired),
      'expired',
      justExpired,
    );
  });

  test('every rejection has the same public message and its own reason', async () => {
    const now = nowSeconds();
    const impostor = await foreignKey('ES256', trusted.kid); // same kid, different key
    const stranger = await foreignKey('ES256');
    const publicJwk = (await dev.store.getPublicJwks()).keys[0];
    const cases: Array<[AuthenticationFailureReason, string]> = [
      ['missing-token', ''],
      ['malformed-token', 'not-a-jwt'],
      ['malformed-token', 'a.b.c'],
      ['bad-signature', await signRaw(impostor, goodClaims())],
      ['unknown-key', await signRaw(stranger, goodClaims())],
      ['unsecured-token', unsecuredToken(goodClaims())],
      ['algorithm-not-allowed', hs256WithPublicKey(publicJwk, goodClaims(), trusted.kid)],
      ['algorithm-not-allowed', hs256WithPublicKey(publicJwk, goodClaims())],
      ['expired', await signRaw(trusted, goodClaims('gateway', { exp: now - 120 }))],
      ['not-yet-valid', await signRaw(trusted, goodClaims('gateway', { nbf: now + 120 }))],
      ['wrong-audience', await signRaw(trusted, goodClaims('agents'))],
      ['wrong-issuer', await signRaw(trusted, goodClaims('gateway', { iss: 'https://evil.example' }))],
      ['missing-subject', await signRaw(trusted, goodClaims('gateway', { sub: undefined }))],
      ['missing-subject', await signRaw(trusted, goodClaims('gateway', { sub: '  ' }))],
      ['missing-expiry', await signRaw(trusted, goodClaims('gateway', { exp: undefined }))],
      ['invalid-claims', await signRaw(trusted, goodClaims('gateway', { scope: 42 }))],
      ['invalid-claims', await signRaw(trusted, goodClaims('gateway', { scope: undefined, scp: ['ok', 'not ok'] }))],
      ['invalid-claims', await signRaw(trusted, goodClaims('gateway', { act: { sub: 7 } }))],
      ['token-too-large', await signRaw(trusted, goodClaims('gateway', { padding: 'x'.repeat(9000) }))],
    ];
    for (const [reason, token] of cases) await rejectsWith(verifier.verify(token), reason, token || undefined);
    assert.ok(new Set(cases.map(([reason]) => reason)).size >= 14, 'distinct reasons');
  });

  test('RS256 is accepted, RS384/ES384/PS256 are not, whatever the keys', async () => {
    const rsa = await foreignKey('RS256');
    const rsaVerifier = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: 's2sp-dev',
      keys: { kind: 'jwks', jwks: jwksOf(rsa) },
    });
    assert.equal((await rsaVerifier.verify(await signRaw(rsa, goodClaims()))).subject, 'alice');
    for (const alg of ['RS384', 'ES384', 'PS256']) {
      const forged = `${Buffer.from(JSON.stringify({ alg, kid: rsa.kid })).toString('base64url')}.${Buffer.from(JSON.stringify(goodClaims())).toString('base64url')}.c2ln`;
      await rejectsWith(rsaVerifier.verify(forged), 'algorithm-not-allowed', forged);
    }
  });

  test('a per-call audience overrides the verifier audience', async () => {
    const token = await dev.minter.mint({ subject: 'svc', scopes: [], audience: 'weather-server', ttlSeconds: 60 });
    await rejectsWith(verifier.verify(token), 'wrong-audience', token);
    assert.equal((await verifier.verify(token, { audience: 'weather-server' })).audience, 'weather-server');
  });
});

describe('JwtTokenVerifier with a JWKS file', () => {
  const dir = tempDir();
  after(() => dir.remove());

  test('verifies against the file and picks up a rotated key', async () => {
    const first = await foreignKey('ES256');
    const second = await foreignKey('RS256');
    const path = join(dir.path, 'jwks.json');
    writeFileSync(path, JSON.stringify(jwksOf(first)));
    let clock = Date.now();
    const verifier = new JwtTokenVerifier({
      audience: 'agents',
      issuer: 'platform',
      keys: createKeySet({ kind: 'jwks-file', path }, () => clock),
    });
    const claims = goodClaims('agents', { iss: 'platform' });
    assert.equal((await verifier.verify(await signRaw(first, claims))).issuer, 'platform');
    await rejectsWith(verifier.verify(await signRaw(second, claims)), 'unknown-key');

    writeFileSync(path, JSON.stringify(jwksOf(first, second)));
    const rotatedAt = new Date(Date.now() + 60_000); // a later mtime, whatever the file system's resolution
    utimesSync(path, rotatedAt, rotatedAt);
    // The refresh after the first miss is within the cooldown: the new key is not read yet.
    clock += 1_000;
    await rejectsWith(verifier.verify(await signRaw(second, claims)), 'unknown-key');
    // Once the cooldown (5 s) has passed, as after a real rotation, it is.
    clock += 5_000;
    assert.equal((await verifier.verify(await signRaw(second, claims))).subject, 'alice');
  });

  test('a JWKS file with a private key is refused', async () => {
    const key = await foreignKey('ES256');
    const path = join(dir.path, 'private.json');
    writeFileSync(path, JSON.stringify({ keys: [await exportJWK(key.privateKey)] }));
    const verifier = new JwtTokenVerifier({
      audience: 'agents',
      issuer: 's2sp-dev',
      keys: { kind: 'jwks-file', path },
    });
    await rejectsWith(verifier.verify(await signRaw(key, goodClaims('agents'))), 'key-set-unavailable');
  });
});

describe('JwtTokenVerifier with a JWKS URL', () => {
  let server: Server;
  let url: string;
  let requests = 0;
  let key: SigningKey & { publicJwk: JWK };
  let hang = false;

  before(async () => {
    key = await foreignKey('ES256');
    server = createServer((request, response) => {
      requests += 1;
      if (hang) return; // never answers
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(jwksOf(key)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('fetches the JWKS once and verifies against it', async () => {
    const verifier = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: 's2sp-dev',
      keys: { kind: 'jwks-url', url, timeoutMs: 2_000 },
    });
    requests = 0;
    for (let i = 0; i < 3; i += 1)
      assert.equal((await verifier.verify(await signRaw(key, goodClaims()))).subject, 'alice');
    assert.equal(requests, 1, 'the key set is cached');
  });

  test('a JWKS endpoint that does not answer fails within the timeout as key-set-unavailable', async () => {
    hang = true;
    try {
      const timeoutMs = 200;
      const verifier = new JwtTokenVerifier({
        audience: 'gateway',
        issuer: 's2sp-dev',
        keys: { kind: 'jwks-url', url: `${url}?fresh`, timeoutMs },
      });
      const started = Date.now();
      await rejectsWith(verifier.verify(await signRaw(key, goodClaims())), 'key-set-unavailable');
      // The endpoint never answers: only the timeout ends the wait (the bound leaves a busy machine room).
      const elapsed = Date.now() - started;
      assert.ok(elapsed >= timeoutMs - 10 && elapsed < timeoutMs * 50, `bounded by timeoutMs: took ${elapsed} ms`);
    } finally {
      hang = false;
    }
  });

  test('plain http is refused except to loopback hosts', () => {
    assert.throws(
      () =>
        new JwtTokenVerifier({
          audience: 'gateway',
          issuer: 'x',
          keys: { kind: 'jwks-url', url: 'http://idp.example.com/jwks' },
        }),
      /https/,
    );
    assert.doesNotThrow(
      () =>
        new JwtTokenVerifier({
          audience: 'gateway',
          issuer: 'x',
          keys: { kind: 'jwks-url', url: 'https://idp.example.com/jwks' },
        }),
    );
    assert.doesNotThrow(
      () =>
        new JwtTokenVerifier({
          audience: 'gateway',
          issuer: 'x',
          keys: { kind: 'jwks-url', url: 'http://[::1]:8080/jwks' },
        }),
    );
  });

  test('only RS256/ES256 may be configured', () => {
    assert.throws(
      () =>
        new JwtTokenVerifier({
          audience: 'a',
          issuer: 'x',
          keys: { kind: 'jwks', jwks: { keys: [] } },
          algorithms: ['HS256' as never],
        }),
      /RS256, ES256/,
    );
  });
});
