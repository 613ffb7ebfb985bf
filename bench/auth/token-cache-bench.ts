/**
 * What the auth caches save on a hop's hot path: the same client token verified
 * and the same narrowing minted again and again, as a gateway sees them,
 *   cold  cache off (maxEntries 0): an ES256 verify / sign every time,
 *   warm  cache on (the defaults): a SHA-256 and a map lookup / a map lookup,
 * in one run, rounds interleaved so machine drift hits both alike.
 *
 *   npm run build && node dist/bench/auth/token-cache-bench.js [iterations=5000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CachingTokenVerifier, DevKeyStore, JwtTokenVerifier, TokenMinter, type CallerIdentity } from '@s2sp/auth';
import { summarize, timeSequential, type LatencySummary } from '../gateway/percentiles';

const iterations = Number(process.argv[2] ?? process.env.BENCH_ITERATIONS ?? 5_000);
const warmup = Math.min(500, iterations);
const rounds = 5;
/** The gateway narrows with the call's remaining budget; 30 s is its default deadline. */
const REMAINING_DEADLINE_MS = 30_000;

interface Variant {
  label: string;
  call: () => Promise<unknown>;
  samples: number[];
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 's2sp-auth-bench-'));
  try {
    const store = new DevKeyStore({ dataDir });
    const verifierWith = (maxEntries: number) =>
      new CachingTokenVerifier(
        new JwtTokenVerifier({ audience: 'gateway', issuer: store.issuer, keys: { kind: 'dev', store } }),
        { maxEntries },
      );
    const minterWith = (maxEntries: number) =>
      new TokenMinter({ issuer: store.issuer, signingKey: store, narrowedTokenCache: { maxEntries } });

    const token = await minterWith(0).mint({
      subject: 'alice',
      scopes: ['tools:call', 'weather:read', 'stats:chart'],
      audience: 'gateway',
      ttlSeconds: 3600,
    });
    const caller: CallerIdentity = await verifierWith(0).verify(token);
    const coldVerifier = verifierWith(0);
    const warmVerifier = verifierWith(10_000);
    const coldMinter = minterWith(0);
    const warmMinter = minterWith(10_000);
    const narrow = (minter: TokenMinter) => () =>
      minter.narrowToken(caller, ['tools:call', 'weather:read'], 'agents', REMAINING_DEADLINE_MS);

    const pairs: Array<[string, Variant, Variant]> = [
      ['verify', variant('cold', () => coldVerifier.verify(token)), variant('warm', () => warmVerifier.verify(token))],
      ['narrowToken', variant('cold', narrow(coldMinter)), variant('warm', narrow(warmMinter))],
    ];
    for (const [, cold, warm] of pairs) {
      await timeSequential(warmup, cold.call);
      await timeSequential(warmup, warm.call);
    }
    for (let round = 0; round < rounds; round++) {
      for (const [, cold, warm] of pairs) {
        cold.samples.push(...(await timeSequential(Math.ceil(iterations / rounds), cold.call)));
        warm.samples.push(...(await timeSequential(Math.ceil(iterations / rounds), warm.call)));
      }
    }
    console.log(`${iterations} sequential calls per variant, same token / same narrowing each time`);
    console.log(`${'operation'.padEnd(24)} ${'p50 µs'.padStart(9)} ${'p99 µs'.padStart(9)} ${'mean µs'.padStart(9)}`);
    for (const [operation, cold, warm] of pairs) {
      const coldSummary = summarize(cold.samples);
      const warmSummary = summarize(warm.samples);
      console.log(row(`${operation} ${cold.label}`, coldSummary));
      console.log(row(`${operation} ${warm.label}`, warmSummary));
      console.log(
        `${operation}: cold/warm ratio p50 ${(coldSummary.p50 / warmSummary.p50).toFixed(0)}x, mean ${(coldSummary.mean / warmSummary.mean).toFixed(0)}x`,
      );
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function variant(label: string, call: () => Promise<unknown>): Variant {
  return { label, call, samples: [] };
}

function row(name: string, summary: LatencySummary): string {
  const micros = (ms: number) => (ms * 1000).toFixed(1).padStart(9);
  return `${name.padEnd(24)} ${micros(summary.p50)} ${micros(summary.p99)} ${micros(summary.mean)}`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
