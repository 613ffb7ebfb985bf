// Dev-key bearer tokens for tests: the same key, issuer and minter as
// `npm run token` and every app started without auth configuration.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';

export const TEST_SUBJECT = 'test-user';

/** Every scope the example stack declares. */
export const ALL_TEST_SCOPES = [
  'tools:list',
  'tools:call',
  'resources:read',
  'tasks:submit',
  'tasks:read',
  'tasks:cancel',
  'weather:read',
  'stats:chart',
  's2sp:data:read',
  's2sp:activity:read',
] as const;

export interface TestTokenRequest {
  subject?: string;
  scopes?: readonly string[];
  audience: string;
  ttlSeconds?: number;
  /** Services that "narrowed" the token before, oldest first (its `act` chain). */
  delegationChain?: readonly string[];
}

let minter: TokenMinter | undefined;

export function testMinter(): TokenMinter {
  minter ??= new TokenMinter({ issuer: 's2sp-dev', signingKey: new DevKeyStore() });
  return minter;
}

export function mintTestToken(request: TestTokenRequest): Promise<string> {
  return testMinter().mint({
    subject: request.subject ?? TEST_SUBJECT,
    scopes: [...(request.scopes ?? ALL_TEST_SCOPES)],
    audience: request.audience,
    ttlSeconds: request.ttlSeconds ?? 3600,
    ...(request.delegationChain ? { delegationChain: [...request.delegationChain] } : {}),
  });
}

export async function bearerFor(request: TestTokenRequest): Promise<string> {
  return `Bearer ${await mintTestToken(request)}`;
}

/**
 * A token minted by the project's own script (`npm run -s token -- …`, here
 * its compiled form), as a user of the stack would mint one.
 */
export async function tokenFromScript(request: {
  subject: string;
  scopes: readonly string[];
  audience?: string;
}): Promise<string> {
  const script = require.resolve('../../scripts/token.js');
  const args = [
    script,
    '--sub',
    request.subject,
    '--scopes',
    request.scopes.join(' '),
    '--aud',
    request.audience ?? 'gateway',
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, { encoding: 'utf8' });
  return stdout.trim();
}
