import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { DevKeyStore, JwtTokenVerifier } from '../../libs/auth/src';
import { tempDir } from './auth-fixtures';

const SCRIPT = join(__dirname, '..', '..', 'scripts', 'token.js');

function runToken(args: string[], dataDir: string): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], {
    env: { ...process.env, S2SP_AUTH_DATA_DIR: dataDir, S2SP_AUTH_ISSUER: '' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('scripts/token (npm run token)', () => {
  const dir = tempDir();
  after(() => dir.remove());

  test('prints only a token, signed with the dev key in S2SP_AUTH_DATA_DIR, that verifies', async () => {
    const { status, stdout, stderr } = runToken(
      ['--sub', 'alice', '--scopes', 'weather:read stats:chart', '--aud', 'weather-server', '--ttl', '120'],
      dir.path,
    );
    assert.equal(status, 0, stderr);
    assert.equal(stderr, '');
    assert.match(stdout, /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\n$/, 'stdout is exactly one token line');
    const token = stdout.trim();
    const verifier = new JwtTokenVerifier({
      audience: 'weather-server',
      issuer: 's2sp-dev',
      keys: { kind: 'dev', store: new DevKeyStore({ dataDir: dir.path }) },
    });
    const identity = await verifier.verify(token);
    assert.equal(identity.subject, 'alice');
    assert.deepEqual(identity.scopes, ['weather:read', 'stats:chart']);
    const { iat, exp } = decodeJwt(token);
    assert.equal(exp! - iat!, 120);
  });

  test('defaults to --aud gateway and --ttl 3600, and reuses the key across runs', () => {
    const first = runToken(['--sub', 'bob', '--scopes', 'a'], dir.path);
    const second = runToken(['--sub', 'bob', '--scopes', 'a'], dir.path);
    assert.equal(first.status, 0, first.stderr);
    const claims = decodeJwt(first.stdout.trim());
    assert.equal(claims.aud, 'gateway');
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.equal(decodeProtectedHeader(first.stdout.trim()).kid, decodeProtectedHeader(second.stdout.trim()).kid);
  });

  test('bad arguments: exit code 2, a message on stderr, nothing on stdout', () => {
    const cases = [
      [],
      ['--scopes', 'a'],
      ['--sub', 'alice'],
      ['--sub', 'alice', '--scopes', 'a', '--ttl', 'soon'],
      ['--sub', 'alice', '--scopes', 'a', '--ttl', '0'],
      ['--sub', 'alice', '--scopes', 'a', '--ttl', '999999999'],
      ['--sub', 'alice', '--scopes', 'bad"scope'],
      ['--sub', 'alice', '--scopes', 'a', '--unknown'],
      ['--sub', 'alice', '--scopes', 'a', 'positional'],
    ];
    for (const args of cases) {
      const result = runToken(args, dir.path);
      assert.equal(result.status, 2, `exit 2 for ${JSON.stringify(args)}`);
      assert.equal(result.stdout, '', `no stdout for ${JSON.stringify(args)}`);
      assert.match(result.stderr, /^token: .+\nusage: /);
    }
  });
});
