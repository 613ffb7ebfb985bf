import assert from 'node:assert/strict';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { after, describe, test } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { AuthenticationError, DevKeyStore, JwtTokenVerifier, TokenMinter } from '../../libs/auth/src';
import { tempDir } from './auth-fixtures';

describe('DevKeyStore', () => {
  const dirs: Array<{ remove(): void }> = [];
  after(() => dirs.forEach((dir) => dir.remove()));
  const fresh = () => {
    const dir = tempDir();
    dirs.push(dir);
    return dir.path;
  };

  test('generates an ES256 key on first use, persists it with mode 0600, and reuses it afterwards', async () => {
    const dataDir = `${fresh()}/nested/auth`;
    const first = new DevKeyStore({ dataDir });
    const key = await first.getSigningKey();
    assert.equal(key.alg, 'ES256');
    assert.equal(statSync(first.privateKeyPath).mode & 0o777, 0o600);
    assert.equal(statSync(first.publicJwksPath).mode & 0o777, 0o600);
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    const privateText = readFileSync(first.privateKeyPath, 'utf8');

    const second = new DevKeyStore({ dataDir });
    assert.equal((await second.getSigningKey()).kid, key.kid, 'a second store (another process) reuses the key');
    assert.equal(readFileSync(first.privateKeyPath, 'utf8'), privateText, 'the key file is not rewritten');

    const jwks = await second.getPublicJwks();
    assert.equal(jwks.keys.length, 1);
    assert.equal(jwks.keys[0].kid, key.kid);
    assert.equal('d' in jwks.keys[0], false, 'the public JWKS holds no private member');
    assert.deepEqual(JSON.parse(readFileSync(first.publicJwksPath, 'utf8')), jwks);
    assert.equal(first.issuer, 's2sp-dev');
  });

  test('stores racing to create the key agree on one key', async () => {
    const dataDir = fresh();
    const kids = await Promise.all(
      Array.from({ length: 8 }, () => new DevKeyStore({ dataDir }).getSigningKey().then((key) => key.kid)),
    );
    assert.equal(new Set(kids).size, 1);
  });

  test('tokens minted by one store verify with another store on the same directory, not with a different directory', async () => {
    const dataDir = fresh();
    const minter = new TokenMinter({ issuer: 's2sp-dev', signingKey: new DevKeyStore({ dataDir }) });
    const token = await minter.mint({ subject: 'alice', scopes: ['a'], audience: 'gateway', ttlSeconds: 60 });
    const sameDir = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: 's2sp-dev',
      keys: { kind: 'dev', store: new DevKeyStore({ dataDir }) },
    });
    assert.equal((await sameDir.verify(token)).subject, 'alice');
    const otherDir = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: 's2sp-dev',
      keys: { kind: 'dev', store: new DevKeyStore({ dataDir: fresh() }) },
    });
    await assert.rejects(
      otherDir.verify(token),
      (error: unknown) => error instanceof AuthenticationError && error.reason === 'unknown-key',
    );
    assert.equal(typeof decodeProtectedHeader(token).kid, 'string');
  });

  test('refuses a key file other users can read', async () => {
    const store = new DevKeyStore({ dataDir: fresh() });
    await store.getSigningKey();
    chmodSync(store.privateKeyPath, 0o644);
    await assert.rejects(
      new DevKeyStore({ dataDir: store.dataDir }).getSigningKey(),
      /accessible by other users.*chmod 600/,
    );
  });

  test('refuses a corrupt key file with a message naming it', async () => {
    const store = new DevKeyStore({ dataDir: fresh() });
    await store.getSigningKey();
    writeFileSync(store.privateKeyPath, '{"kty":"oct","k":"c2VjcmV0"}', { mode: 0o600 });
    await assert.rejects(
      new DevKeyStore({ dataDir: store.dataDir }).getSigningKey(),
      (error: Error) => error.message.includes(store.privateKeyPath) && /unusable/.test(error.message),
    );
  });
});
