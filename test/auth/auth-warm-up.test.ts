import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { Test } from '@nestjs/testing';
import {
  AuthModule,
  DevKeyStore,
  type ResolvedAuthOptions,
  type TokenMinter,
  type TokenVerifier,
} from '../../libs/auth/src';
import { AuthWarmUp } from '../../libs/auth/src/warm-up/auth-warm-up';
import { tempDir } from './auth-fixtures';

const OPTIONS = { audience: 'weather-server' } as ResolvedAuthOptions;

test('an app with auth reads its signing key and key set while it starts, before any request', async () => {
  const dir = tempDir();
  const moduleRef = await Test.createTestingModule({
    imports: [AuthModule.forRoot({ audience: 'gateway', dataDir: dir.path })],
  }).compile();
  const keyFile = moduleRef.get(DevKeyStore).privateKeyPath;
  assert.equal(existsSync(keyFile), false, 'nothing read nor made while the module is built');
  await moduleRef.init();
  try {
    assert.equal(existsSync(keyFile), true, 'the dev key was made (or read) while the app started');
  } finally {
    await moduleRef.close();
    dir.remove();
  }
});

test('the warm-up mints a token for the app itself and verifies it; a failure or a hang does not stop the start', async () => {
  const calls: string[] = [];
  const minter = {
    mint: async (request: { subject: string; audience: string; scopes: readonly string[] }) => {
      calls.push(`mint ${request.subject} for ${request.audience} [${request.scopes.join(',')}]`);
      return 'minted';
    },
  } as unknown as TokenMinter;
  const verifier = {
    verify: async (token: string) => void calls.push(`verify ${token}`),
  } as unknown as TokenVerifier;
  await new AuthWarmUp(OPTIONS, minter, verifier).onApplicationBootstrap();
  assert.deepEqual(calls, ['mint warm-up for weather-server []', 'verify minted']);

  const failing = { mint: () => Promise.reject(new Error('no signing key')) } as unknown as TokenMinter;
  await new AuthWarmUp(OPTIONS, failing, verifier).onApplicationBootstrap();

  const hanging = { verify: () => new Promise(() => undefined) } as unknown as TokenVerifier;
  const startedAt = Date.now();
  await new AuthWarmUp(OPTIONS, minter, hanging).onApplicationBootstrap();
  assert.ok(Date.now() - startedAt < 5_000, 'given up after its timeout');
});
