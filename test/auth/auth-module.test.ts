import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Test } from '@nestjs/testing';
import {
  APPROVAL_PROVIDER,
  AUDIT_SINK,
  BatchingAuditSink,
  AUTH_OPTIONS,
  AuthModule,
  authOptionsFromEnv,
  DenyAllApprovalProvider,
  FileSigningKeySource,
  resolveAuthOptions,
  SIGNING_KEY_SOURCE,
  TOKEN_VERIFIER,
  TokenMinter,
  type ResolvedAuthOptions,
  type TokenVerifier,
} from '../../libs/auth/src';
import { tempDir } from './auth-fixtures';

describe('authOptionsFromEnv', () => {
  test('defaults to the dev key; the service audience can be overridden', () => {
    assert.deepEqual(authOptionsFromEnv('agents', {}), { audience: 'agents', keys: { kind: 'dev' } });
    const options = authOptionsFromEnv('agents', {
      S2SP_AUTH_AUDIENCE: 'agents-eu',
      S2SP_AUTH_ISSUER: 'https://idp.example, s2sp-dev',
      S2SP_AUTH_JWKS_URL: 'https://idp.example/.well-known/jwks.json',
      S2SP_AUTH_JWKS_TIMEOUT_MS: '2500',
      S2SP_AUTH_DATA_DIR: '/var/lib/s2sp/auth',
      S2SP_AUTH_SIGNING_KEY_FILE: '/run/secrets/platform.jwk.json',
      S2SP_AUTH_CLOCK_TOLERANCE_SECONDS: '10',
      S2SP_AUTH_APPROVAL_TIMEOUT_MS: '30000',
    });
    assert.deepEqual(options, {
      audience: 'agents-eu',
      issuer: ['https://idp.example', 's2sp-dev'],
      keys: { kind: 'jwks-url', url: 'https://idp.example/.well-known/jwks.json', timeoutMs: 2500 },
      dataDir: '/var/lib/s2sp/auth',
      signingKeyFile: '/run/secrets/platform.jwk.json',
      clockToleranceSeconds: 10,
      approvalTimeoutMs: 30000,
    });
    assert.deepEqual(authOptionsFromEnv('x', { S2SP_AUTH_JWKS_FILE: '/etc/jwks.json' }).keys, { kind: 'jwks-file', path: '/etc/jwks.json' });
  });

  test('refuses contradictory or malformed settings, naming the variable', () => {
    assert.throws(() => authOptionsFromEnv('x', { S2SP_AUTH_JWKS_URL: 'https://a', S2SP_AUTH_JWKS_FILE: '/b' }), /only one of S2SP_AUTH_JWKS_URL and S2SP_AUTH_JWKS_FILE/);
    assert.throws(() => authOptionsFromEnv('x', { S2SP_AUTH_CLOCK_TOLERANCE_SECONDS: 'lots' }), /S2SP_AUTH_CLOCK_TOLERANCE_SECONDS/);
    assert.throws(() => authOptionsFromEnv('x', { NODE_ENV: 'production' }), /NODE_ENV=production needs S2SP_AUTH_JWKS_URL or S2SP_AUTH_JWKS_FILE/);
    assert.equal(authOptionsFromEnv('x', { NODE_ENV: 'production', S2SP_AUTH_ALLOW_DEV_KEY: '1' }).keys?.kind, 'dev');
    assert.throws(() => resolveAuthOptions({ audience: ' ' }), /audience/);
    assert.throws(() => resolveAuthOptions({ audience: 'a', defaultMutationClass: 'WRITE' as never }), /defaultMutationClass/);
  });
});

describe('AuthModule', () => {
  const dir = tempDir();
  after(() => dir.remove());

  test('forRoot provides the verifier, minter, default deny approvals and the logger audit sink, batched', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AuthModule.forRoot({ audience: 'gateway', dataDir: dir.path })] }).compile();
    try {
      assert.ok(moduleRef.get(APPROVAL_PROVIDER) instanceof DenyAllApprovalProvider);
      assert.ok(moduleRef.get(AUDIT_SINK) instanceof BatchingAuditSink, 'decisions are batched by default');
      const token = await moduleRef.get(TokenMinter).mint({ subject: 'alice', scopes: ['a'], audience: 'gateway', ttlSeconds: 60 });
      assert.equal((await moduleRef.get<TokenVerifier>(TOKEN_VERIFIER).verify(token)).subject, 'alice');
    } finally {
      await moduleRef.close();
    }
  });

  test('forRootAsync takes options from a factory (e.g. the environment) and a signing key file', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        AuthModule.forRootAsync({
          useFactory: () => ({ ...authOptionsFromEnv('agents', { S2SP_AUTH_DATA_DIR: dir.path, S2SP_AUTH_SIGNING_KEY_FILE: `${dir.path}/dev-signing-key.jwk.json` }) }),
        }),
      ],
    }).compile();
    try {
      const options = moduleRef.get<ResolvedAuthOptions>(AUTH_OPTIONS);
      assert.equal(options.audience, 'agents');
      assert.equal(options.mintIssuer, 's2sp-dev');
      assert.ok(moduleRef.get(SIGNING_KEY_SOURCE) instanceof FileSigningKeySource);
      const token = await moduleRef.get(TokenMinter).mint({ subject: 'svc', scopes: [], audience: 'agents', ttlSeconds: 60 });
      assert.equal((await moduleRef.get<TokenVerifier>(TOKEN_VERIFIER).verify(token)).subject, 'svc', 'the file key is the dev key: verifies');
    } finally {
      await moduleRef.close();
    }
  });
});
