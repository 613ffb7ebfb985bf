// Mints a development bearer token signed with the embedded dev key.
//
//   npm run -s token -- --sub alice --scopes "weather:read stats:chart" [--aud gateway] [--ttl 3600] [--client-id cli]
//
// stdout: the token and nothing else (TOKEN=$(npm run -s token -- ...) works).
// stderr: errors; exit code 2 for bad arguments, 1 for anything else.
// Key directory: S2SP_AUTH_DATA_DIR (default .data/auth); issuer: S2SP_AUTH_ISSUER (default s2sp-dev).
import { parseArgs } from 'node:util';
// Only the modules needed (not the barrel, which loads Nest, gRPC and MCP): the script starts fast.
import { AUTH_ENV } from '../libs/auth/src/config/auth-env';
import { assertValidScopes, splitScopes } from '../libs/auth/src/identity/scopes';
import { DEV_ISSUER, DevKeyStore } from '../libs/auth/src/keys/dev-key-store';
import { DEFAULT_MAX_TTL_SECONDS, TokenMinter } from '../libs/auth/src/minting/token-minter';

const USAGE =
  'usage: npm run -s token -- --sub <subject> --scopes "<scope> <scope> ..." [--aud <audience>] [--ttl <seconds>] [--client-id <id>]';

class UsageError extends Error {}

interface TokenArguments {
  subject: string;
  scopes: string[];
  audience: string;
  ttlSeconds: number;
  clientId?: string;
}

function parse(argv: string[]): TokenArguments | 'help' {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: false,
      options: {
        sub: { type: 'string' },
        scopes: { type: 'string' },
        aud: { type: 'string', default: 'gateway' },
        ttl: { type: 'string', default: '3600' },
        'client-id': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help) return 'help';
  const subject = typeof values.sub === 'string' ? values.sub.trim() : '';
  if (subject === '') throw new UsageError('--sub is required');
  if (typeof values.scopes !== 'string')
    throw new UsageError('--scopes is required (a space-separated list; "" for none)');
  const scopes = splitScopes(values.scopes.trim());
  try {
    assertValidScopes(scopes);
  } catch (error) {
    throw new UsageError(`--scopes: ${(error as Error).message}`);
  }
  const audience = String(values.aud).trim();
  if (audience === '') throw new UsageError('--aud must not be empty');
  const ttlSeconds = Number(values.ttl);
  if (
    !/^\d+$/.test(String(values.ttl)) ||
    !Number.isSafeInteger(ttlSeconds) ||
    ttlSeconds < 1 ||
    ttlSeconds > DEFAULT_MAX_TTL_SECONDS
  ) {
    throw new UsageError(
      `--ttl must be a whole number of seconds from 1 to ${DEFAULT_MAX_TTL_SECONDS}, got ${JSON.stringify(values.ttl)}`,
    );
  }
  const clientId =
    typeof values['client-id'] === 'string' && values['client-id'].trim() !== ''
      ? values['client-id'].trim()
      : undefined;
  return { subject, scopes, audience, ttlSeconds, ...(clientId ? { clientId } : {}) };
}

async function main(): Promise<number> {
  let args: TokenArguments | 'help';
  try {
    args = parse(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`token: ${error.message}\n${USAGE}\n`);
    return 2;
  }
  if (args === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return 0;
  }
  const issuer = process.env[AUTH_ENV.ISSUER]?.split(',')[0]?.trim() || DEV_ISSUER;
  const store = new DevKeyStore({ dataDir: process.env[AUTH_ENV.DATA_DIR]?.trim() || undefined, issuer });
  const minter = new TokenMinter({ issuer, signingKey: store });
  const token = await minter.mint({
    subject: args.subject,
    scopes: args.scopes,
    audience: args.audience,
    ttlSeconds: args.ttlSeconds,
    ...(args.clientId ? { clientId: args.clientId } : {}),
  });
  process.stdout.write(`${token}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
