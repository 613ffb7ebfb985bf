/**
 * A fetch right after publishing, as a consumer told of the resource_url at once makes it:
 * the in-memory database a test suite uses (`database: { dataDir: ':memory:' }`, an in-process
 * PGlite) against the default store on PostgreSQL, measured in the same run, each in its own
 * server process. The publish is not waited for: its table write (after the answer) may still run.
 * The baseline: the same 100 rows of the same table from a bare node:http endpoint in the
 * PostgreSQL store's server process (`JSON.stringify` of the rows), timed the same way.
 *   node dist/bench/data-plane/fetch-after-publish.js [rows=100000,10000] [runs=7]
 * S2SP_BENCH_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/test) names the server.
 */
import { median } from '../gateway/percentiles';
import { randomRowIds } from './bench-rows';
import { dropSchemas, freshSchemaUrl } from './bench-schema';
import { startBenchServerProcess, type BenchServerProcess } from './bench-server-process';
import { timeFetch } from './end-to-end-fetch';

const DATABASE_URL = process.env.S2SP_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const COLUMNS = 13;
const FETCHED_ROWS = 100;

/** Publish, then at once fetch 100 rows: the milliseconds of the fetch alone. */
async function fetchRightAfterPublishing(server: BenchServerProcess, rows: number, run: number): Promise<number> {
  const { resourceUrl } = await server.control<{ resourceUrl: string }>(
    `/bench/publish?rows=${rows}&columns=${COLUMNS}`,
  );
  const fetchMs = await timeFetch(resourceUrl, 'json', randomRowIds(rows, FETCHED_ROWS, run + 1), FETCHED_ROWS);
  await server.control('/bench/settle');
  return fetchMs;
}

async function main(): Promise<void> {
  const sizes = (process.argv[2] ?? '100000,10000').split(',').map(Number);
  const runs = Number(process.argv[3] ?? 7);
  if (sizes.some((rows) => !Number.isInteger(rows) || rows < FETCHED_ROWS) || !Number.isInteger(runs) || runs < 1) {
    throw new Error(`usage: fetch-after-publish [rows,…: each at least ${FETCHED_ROWS}] [runs ≥ 1]`);
  }
  const postgres = freshSchemaUrl(DATABASE_URL);
  const maxRows = Math.max(...sizes);
  const servers = {
    postgres: await startBenchServerProcess('after-answer', postgres.url, maxRows),
    memory: await startBenchServerProcess('after-answer', ':memory:', maxRows),
  };
  try {
    console.log(`fetch of ${FETCHED_ROWS} rows right after publishing n × ${COLUMNS}, median of ${runs} (ms)`);
    console.log('rows\tPostgreSQL store\tin-memory PGlite\tbare\tmemory / PostgreSQL\tPostgreSQL / bare');
    for (const rows of sizes) {
      const samples = { postgres: [] as number[], memory: [] as number[], bare: [] as number[] };
      const bareFetch = (run: number) =>
        timeFetch(
          `${servers.postgres.bareOrigin}/bare?rows=${rows}&columns=${COLUMNS}`,
          'bare',
          randomRowIds(rows, FETCHED_ROWS, run + 1),
          FETCHED_ROWS,
        );
      // Warm-up, then the servers alternate run by run, so a busy moment of the machine hits each.
      for (const server of Object.values(servers)) await fetchRightAfterPublishing(server, rows, 0);
      await bareFetch(0);
      for (let run = 0; run < runs; run += 1) {
        samples.postgres.push(await fetchRightAfterPublishing(servers.postgres, rows, run));
        samples.memory.push(await fetchRightAfterPublishing(servers.memory, rows, run));
        samples.bare.push(await bareFetch(run));
      }
      const [onPostgres, inMemory, bare] = [median(samples.postgres), median(samples.memory), median(samples.bare)];
      console.log(
        [rows, onPostgres.toFixed(1), inMemory.toFixed(1), bare.toFixed(1)].join('\t') +
          `\t${(inMemory / onPostgres).toFixed(2)}×\t${(onPostgres / bare).toFixed(2)}×`,
      );
    }
  } finally {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
    await dropSchemas(DATABASE_URL, [postgres.schema]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
