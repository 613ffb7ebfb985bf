/**
 * Data plane at scale (issue 20): publish, fetch and server memory of 1k…1M rows × 30 columns
 * (plus 100k × 13, like the reference Python SDK's figures), against a bare node:http baseline.
 *
 *   npm run build && node dist/bench/data-plane/data-plane-bench.js [sizes=1k,10k,100k] [runs]
 *
 * The resource server runs as a child process (bench-server-main.ts) on PostgreSQL at
 * S2SP_BENCH_DATABASE_URL, in fresh schemas dropped at the end.
 */
import { median } from '../gateway/percentiles';
import { randomRowIds } from './bench-rows';
import { dropSchemas, freshSchemaUrl } from './bench-schema';
import { startBenchServerProcess, type BenchServerProcess } from './bench-server-process';
import { timeFetch, type FetchFormat } from './end-to-end-fetch';
import { fetchRuns, parseBenchSizes, type BenchCase } from './bench-cases';
import { printReport, type CaseResult, type FetchResult, type Selection } from './data-plane-report';
import type { ProcessMemory } from './process-memory';
import { ALLOCATOR_SETTINGS } from '../../scripts/allocator-settings';

const DATABASE_URL = process.env.S2SP_BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
const FORMATS: readonly FetchFormat[] = ['json', 'arrow', 'bare'];

async function repeat(runs: number, measure: (run: number) => Promise<number>): Promise<number> {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) samples.push(await measure(run));
  return median(samples);
}

/**
 * A freshly published resource whose table write (after the answer, in the default mode) has
 * ended, as it has by the time a consumer, told of it through the model, fetches it.
 */
async function publishStored(server: BenchServerProcess, query: string): Promise<string> {
  const { resourceUrl } = await server.control<{ resourceUrl: string }>(`/bench/publish?${query}`);
  await server.control('/bench/settle');
  return resourceUrl;
}

/** Publish time of one table, timed alone: the previous table's write has ended. */
async function publishAlone(server: BenchServerProcess, query: string): Promise<number> {
  await server.control('/bench/settle');
  return (await server.control<{ publishMs: number }>(`/bench/publish?${query}`)).publishMs;
}

function selectionsOf(rows: number): Selection[] {
  return [
    { name: '100 rows', count: Math.min(100, rows) },
    { name: '10% of rows', count: Math.max(1, Math.floor(rows / 10)) },
    { name: 'all rows', count: rows },
  ];
}

async function measureFetch(
  server: BenchServerProcess,
  benchCase: BenchCase,
  selection: Selection,
  format: FetchFormat,
  runs: number,
): Promise<number> {
  const query = `rows=${benchCase.rows}&columns=${benchCase.columns}`;
  const once = async (run: number): Promise<number> => {
    const rowIds = selection.count === benchCase.rows ? null : randomRowIds(benchCase.rows, selection.count, run + 1);
    const url = format === 'bare' ? `${server.bareOrigin}/bare?${query}` : await publishStored(server, query);
    return timeFetch(url, format, rowIds, selection.count);
  };
  if (benchCase.rows <= 10_000) await once(0);
  return repeat(runs, once);
}

async function measureCase(
  server: BenchServerProcess,
  benchCase: BenchCase,
): Promise<Omit<CaseResult, 'publishBeforeMs' | 'peakRssBytes' | 'peakRssTunedBytes'>> {
  const query = `rows=${benchCase.rows}&columns=${benchCase.columns}`;
  const publishMs = (): Promise<number> => publishAlone(server, query);
  if (benchCase.rows <= 10_000) await publishMs();
  const publishAfterMs = await repeat(benchCase.runs, publishMs);
  const stringifyMs = await repeat(
    benchCase.runs,
    async () => (await server.control<{ stringifyMs: number }>(`/bench/stringify?${query}`)).stringifyMs,
  );
  const fetches: FetchResult[] = [];
  for (const selection of selectionsOf(benchCase.rows)) {
    const times = {} as Record<FetchFormat, number>;
    for (const format of FORMATS)
      times[format] = await measureFetch(server, benchCase, selection, format, fetchRuns(benchCase, selection.count));
    fetches.push({ selection, ...times });
  }
  return { benchCase, publishAfterMs, stringifyMs, fetches };
}

/** Peak RSS of a fresh server that publishes the table and serves it whole, once as JSON and once as Arrow. */
async function measurePeakRss(
  databaseUrl: string,
  maxRows: number,
  benchCase: BenchCase,
  environment: Record<string, string> = {},
): Promise<number> {
  const server = await startBenchServerProcess('after-answer', databaseUrl, maxRows, environment);
  try {
    const query = `rows=${benchCase.rows}&columns=${benchCase.columns}`;
    for (const format of ['json', 'arrow'] as const)
      await timeFetch(await publishStored(server, query), format, null, benchCase.rows);
    return (await server.control<ProcessMemory>('/bench/memory')).peakRssBytes;
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const cases = parseBenchSizes(process.argv[2], process.argv[3]);
  const maxRows = Math.max(...cases.map((benchCase) => benchCase.rows));
  const before = freshSchemaUrl(DATABASE_URL);
  const after = freshSchemaUrl(DATABASE_URL);
  const started = Date.now();
  try {
    const results: Array<Omit<CaseResult, 'publishBeforeMs' | 'peakRssBytes' | 'peakRssTunedBytes'>> = [];
    const server = await startBenchServerProcess('after-answer', after.url, maxRows);
    let idle: ProcessMemory | undefined;
    try {
      idle = await server.control<ProcessMemory>('/bench/memory');
      for (const benchCase of cases) {
        console.error(`measuring ${benchCase.rows} × ${benchCase.columns} (after-answer server, pid ${server.pid})…`);
        results.push(await measureCase(server, benchCase));
      }
    } finally {
      await server.stop();
    }
    // A second server publishes with the other write mode.
    const beforeServer = await startBenchServerProcess('before-answer', before.url, maxRows);
    const publishBefore: number[] = [];
    try {
      for (const benchCase of cases) {
        console.error(`measuring ${benchCase.rows} × ${benchCase.columns} (before-answer server)…`);
        const publishMs = (): Promise<number> =>
          publishAlone(beforeServer, `rows=${benchCase.rows}&columns=${benchCase.columns}`);
        if (benchCase.rows <= 10_000) await publishMs();
        publishBefore.push(await repeat(benchCase.runs, publishMs));
      }
    } finally {
      await beforeServer.stop();
    }
    const peakRss: Array<{ peakRssBytes: number; peakRssTunedBytes: number }> = [];
    for (const benchCase of cases) {
      console.error(
        `measuring the peak RSS of a fresh server serving ${benchCase.rows} × ${benchCase.columns}, with glibc's defaults and then the Dockerfile's allocator settings…`,
      );
      peakRss.push({
        peakRssBytes: await measurePeakRss(after.url, maxRows, benchCase),
        peakRssTunedBytes: await measurePeakRss(after.url, maxRows, benchCase, ALLOCATOR_SETTINGS),
      });
    }
    printReport(
      results.map((result, index) => ({ ...result, publishBeforeMs: publishBefore[index], ...peakRss[index] })),
      { wallSeconds: (Date.now() - started) / 1000, idle: idle },
    );
  } finally {
    await dropSchemas(DATABASE_URL, [before.schema, after.schema]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
