import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { Test } from '@nestjs/testing';
import {
  APPROVAL_PROVIDER,
  AUDIT_SINK,
  BatchingAuditSink,
  AuthModule,
  authOptionsFromEnv,
  CachingTokenVerifier,
  DenyAllApprovalProvider,
  FileSigningKeySource,
  SIGNING_KEY_SOURCE,
  TOKEN_VERIFIER,
  TokenMinter,
  type ResolvedAuthOptions,
  type TokenVerifier,
} from '../../libs/auth/src';
import { AUTH_OPTIONS, resolveAuthOptions } from '../../libs/auth/src/internal';
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
      S2SP_AUTH_VERIFY_CACHE_SIZE: '0',
      S2SP_AUTH_VERIFY_CACHE_TTL_MS: '15000',
      S2SP_AUTH_MINT_CACHE_SIZE: '500',
      S2SP_AUTH_MINT_REUSE_SLACK_MS: '1000',
    });
    assert.deepEqual(options, {
      audience: 'agents-eu',
      issuer: ['https://idp.example', 's2sp-dev'],
      keys: { kind: 'jwks-url', url: 'https://idp.example/.well-known/jwks.json', timeoutMs: 2500 },
      dataDir: '/var/lib/s2sp/auth',
      signingKeyFile: '/run/secrets/platform.jwk.json',
      clockToleranceSeconds: 10,
      approvalTimeoutMs: 30000,
      verifyCacheSize: 0,
      verifyCacheTtlMs: 15000,
      mintCacheSize: 500,
      mintReuseSlackMs: 1000,
    });
    assert.deepEqual(authOptionsFromEnv('x', { S2SP_AUTH_JWKS_FILE: '/etc/jwks.json' }).keys, {
      kind: 'jwks-file',
      path: '/etc/jwks.json',
    });
  });

  test('refuses contradictory or malformed settings, naming the variable', () => {
    assert.throws(
      () => authOptionsFromEnv('x', { S2SP_AUTH_JWKS_URL: 'https://a', S2SP_AUTH_JWKS_FILE: '/b' }),
      /only one of S2SP_AUTH_JWKS_URL and S2SP_AUTH_JWKS_FILE/,
    );
    assert.throws(
      () => authOptionsFromEnv('x', { S2SP_AUTH_CLOCK_TOLERANCE_SECONDS: 'lots' }),
      /S2SP_AUTH_CLOCK_TOLERANCE_SECONDS/,
    );
    assert.throws(
      () => authOptionsFromEnv('x', { NODE_ENV: 'production' }),
      /NODE_ENV=production needs S2SP_AUTH_JWKS_URL or S2SP_AUTH_JWKS_FILE/,
    );
    assert.equal(authOptionsFromEnv('x', { NODE_ENV: 'production', S2SP_AUTH_ALLOW_DEV_KEY: '1' }).keys?.kind, 'dev');
    assert.throws(() => resolveAuthOptions({ audience: ' ' }), /audience/);
    assert.throws(
      () => resolveAuthOptions({ audience: 'a', defaultMutationClass: 'WRITE' as never }),
      /defaultMutationClass/,
    );
    for (const [name, value] of [
      ['S2SP_AUTH_VERIFY_CACHE_SIZE', '-1'],
      ['S2SP_AUTH_VERIFY_CACHE_TTL_MS', '0'],
      ['S2SP_AUTH_VERIFY_CACHE_TTL_MS', '900001'],
      ['S2SP_AUTH_MINT_CACHE_SIZE', 'many'],
      ['S2SP_AUTH_MINT_REUSE_SLACK_MS', '60001'],
    ] as const) {
      assert.throws(() => authOptionsFromEnv('x', { [name]: value }), new RegExp(`${name} must be an integer`));
    }
  });

  test('the token caches are on by default; their options are checked, naming the option', () => {
    const resolved = resolveAuthOptions({ audience: 'gateway' });
    assert.deepEqual(
      [resolved.verifyCacheSize, resolved.verifyCacheTtlMs, resolved.mintCacheSize, resolved.mintReuseSlackMs],
      [10_000, 60_000, 10_000, 5_000],
    );
    for (const [name, value] of [
      ['verifyCacheSize', 1.5],
      ['verifyCacheSize', 1_000_001],
      ['verifyCacheTtlMs', 0],
      ['mintCacheSize', -1],
      ['mintReuseSlackMs', 60_001],
    ] as const) {
      assert.throws(
        () => resolveAuthOptions({ audience: 'a', [name]: value }),
        new RegExp(`Auth option ${name} must be an integer`),
      );
    }
  });
});

describe('AuthModule', () => {
  const dir = tempDir();
  after(() => dir.remove());

  test('forRoot provides the verifier, minter, default deny approvals and the logger audit sink, batched', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AuthModule.forRoot({ audience: 'gateway', dataDir: dir.path })],
    }).compile();
    try {
      assert.ok(moduleRef.get(APPROVAL_PROVIDER) instanceof DenyAllApprovalProvider);
      assert.ok(moduleRef.get(AUDIT_SINK) instanceof BatchingAuditSink, 'decisions are batched by default');
      const token = await moduleRef
        .get(TokenMinter)
        .mint({ subject: 'alice', scopes: ['a'], audience: 'gateway', ttlSeconds: 60 });
      assert.equal((await moduleRef.get<TokenVerifier>(TOKEN_VERIFIER).verify(token)).subject, 'alice');
    } finally {
      await moduleRef.close();
    }
  });

  test('TOKEN_VERIFIER and TokenMinter cache by default, and not when the cache sizes are 0', async () => {
    const sameTwice = async (options: { verifyCacheSize?: number; mintCacheSize?: number }) => {
      const moduleRef = await Test.createTestingModule({
        imports: [AuthModule.forRoot({ audience: 'gateway', dataDir: dir.path, ...options })],
      }).compile();
      try {
        const verifier = moduleRef.get<TokenVerifier>(TOKEN_VERIFIER);
        const minter = moduleRef.get(TokenMinter);
        const token = await minter.mint({ subject: 'alice', scopes: ['a'], audience: 'gateway', ttlSeconds: 60 });
        const caller = await verifier.verify(token);
        return {
          cachingVerifier: verifier instanceof CachingTokenVerifier,
          identity: (await verifier.verify(token)) === caller,
          narrowed:
            (await minter.narrowToken(caller, ['a'], 'agents')) === (await minter.narrowToken(caller, ['a'], 'agents')),
        };
      } finally {
        await moduleRef.close();
      }
    };
    assert.deepEqual(await sameTwice({}), { cachingVerifier: true, identity: true, narrowed: true });
    assert.deepEqual(await sameTwice({ verifyCacheSize: 0, mintCacheSize: 0 }), {
      cachingVerifier: true,
      identity: false,
      narrowed: false,
    });
  });

  test('forRootAsync takes options from a factory (e.g. the environment) and a signing key file', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        AuthModule.forRootAsync({
          useFactory: () => ({
            ...authOptionsFromEnv('agents', {
              S2SP_AUTH_DATA_DIR: dir.path,
              S2SP_AUTH_SIGNING_KEY_FILE: `${dir.path}/dev-signing-key.jwk.json`,
            }),
          }),
        }),
      ],
    }).compile();
    try {
      const options = moduleRef.get<ResolvedAuthOptions>(AUTH_OPTIONS);
      assert.equal(options.audience, 'agents');
      assert.equal(options.mintIssuer, 's2sp-dev');
      assert.ok(moduleRef.get(SIGNING_KEY_SOURCE) instanceof FileSigningKeySource);
      const token = await moduleRef
        .get(TokenMinter)
        .mint({ subject: 'svc', scopes: [], audience: 'agents', ttlSeconds: 60 });
      assert.equal(
        (await moduleRef.get<TokenVerifier>(TOKEN_VERIFIER).verify(token)).subject,
        'svc',
        'the file key is the dev key: verifies',
      );
    } finally {
      await moduleRef.close();
    }
  });
});
