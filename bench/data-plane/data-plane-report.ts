import { ALLOCATOR_SETTINGS } from '../../scripts/allocator-settings';
import { loadavg } from 'node:os';
import { SMALL_FETCH_ROWS, SMALL_FETCH_RUN_FACTOR, type BenchCase } from './bench-cases';
import type { ProcessMemory } from './process-memory';

export interface Selection {
  name: string;
  count: number;
}

/** Median end-to-end milliseconds of one selection, per format. */
export interface FetchResult {
  selection: Selection;
  json: number;
  arrow: number;
  bare: number;
}

export interface CaseResult {
  benchCase: BenchCase;
  publishBeforeMs: number;
  publishAfterMs: number;
  stringifyMs: number;
  fetches: FetchResult[];
  peakRssBytes: number;
  /** The same, with the allocator settings of the Dockerfile (scripts/allocator-settings.ts). */
  peakRssTunedBytes: number;
}

/** The shape the reference Python SDK was measured at (issue 20): its figures compare with this case only. */
export const REFERENCE_COLUMNS = 13;
/** The reference Python SDK on 100k rows × 13 columns (issue 20, measured elsewhere). */
const PYTHON_REFERENCE = { cachingMs: 83, hundredRowsMs: 8.3, tenThousandRowsMs: 46, allRowsMs: 459, peakRssMiB: 282 };
/**
 * The bare node:http endpoint on the machine where the reference was measured (issue 20's table):
 * dividing each side by its own machine's bare endpoint compares the two across machines.
 */
const REFERENCE_MACHINE_BARE = { hundredRowsMs: 2.2, tenThousandRowsMs: 33 };
const RSS_TARGET_MIB = 282;
const allocatorSettingsText = (): string =>
  Object.entries(ALLOCATOR_SETTINGS)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');

const ms = (value: number): string => (value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US'));
const ratio = (value: number): string => `${value.toFixed(2)}×`;
const mib = (bytes: number): number => bytes / 1024 ** 2;
const label = ({ rows, columns }: BenchCase): string => `${rows.toLocaleString('en-US')} × ${columns}`;
const verdict = (met: boolean): string => (met ? 'met' : 'NOT met');

export function printReport(results: readonly CaseResult[], run: { wallSeconds: number; idle: ProcessMemory }): void {
  const [load1, load5] = loadavg();
  console.log(
    `Data plane at scale — Node ${process.version}, median of ${[...new Set(results.map(({ benchCase }) => benchCase.runs))].join('/')} runs (${SMALL_FETCH_RUN_FACTOR}× as many for fetches of up to ${SMALL_FETCH_ROWS.toLocaleString('en-US')} rows), load average ${load1.toFixed(1)} / ${load5.toFixed(1)}, whole run ${run.wallSeconds.toFixed(0)} s\n`,
  );

  console.log('Publish (ResourcePublisher.publish of the split rows, abstract = 3 columns), ms');
  console.log(
    '| rows × columns | after-answer (default) | before-answer | JSON.stringify | after / stringify | before / stringify |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const result of results) {
    console.log(
      `| ${label(result.benchCase)} | ${ms(result.publishAfterMs)} | ${ms(result.publishBeforeMs)} | ${ms(result.stringifyMs)} | ` +
        `${ratio(result.publishAfterMs / result.stringifyMs)} | ${ratio(result.publishBeforeMs / result.stringifyMs)} |`,
    );
  }

  console.log('\nFetch, end to end from another process (request → decoded row objects), ms');
  console.log(
    '| rows × columns | selection | S2SP JSON | S2SP Arrow | bare JSON | S2SP JSON / bare throughput | Arrow / JSON time |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const result of results) {
    for (const fetch of result.fetches) {
      console.log(
        `| ${label(result.benchCase)} | ${fetch.selection.name} (${fetch.selection.count.toLocaleString('en-US')}) | ${ms(fetch.json)} | ${ms(fetch.arrow)} | ${ms(fetch.bare)} | ` +
          `${((fetch.bare / fetch.json) * 100).toFixed(0)}% | ${ratio(fetch.arrow / fetch.json)} |`,
      );
    }
  }

  console.log(
    '\nPeak RSS (VmHWM) of a fresh server process that publishes the table and serves all rows once as JSON and once as Arrow (the generated rows it publishes included)',
  );
  const { idle } = run;
  console.log(
    `(the server once started, before any table: RSS ${mib(idle.rssBytes).toFixed(0)} MiB, of it V8's heap ${mib(idle.heapTotalBytes).toFixed(0)} MiB ` +
      `(${mib(idle.heapUsedBytes).toFixed(0)} MiB in use), Buffers and ArrayBuffers ${mib(idle.externalBytes).toFixed(0)} MiB, V8's own allocations ${mib(idle.v8MallocedBytes).toFixed(0)} MiB)`,
  );
  console.log(
    `| rows × columns | peak RSS, glibc defaults | peak RSS, ${allocatorSettingsText()} (as the Dockerfile sets) |`,
  );
  console.log('|---|---|---|');
  for (const result of results)
    console.log(
      `| ${label(result.benchCase)} | ${mib(result.peakRssBytes).toFixed(0)} MiB | ${mib(result.peakRssTunedBytes).toFixed(0)} MiB |`,
    );

  printTargets(results);
  printReference(
    results.find(({ benchCase }) => benchCase.rows === 100_000 && benchCase.columns === REFERENCE_COLUMNS),
  );
}

function printTargets(results: readonly CaseResult[]): void {
  console.log('\nTargets');
  for (const result of results) {
    const { rows, columns } = result.benchCase;
    const all = result.fetches[result.fetches.length - 1];
    // The target applies to the default mode; before-answer, which also waits for the table's write, is shown beside it.
    const publish = result.publishAfterMs <= result.stringifyMs;
    const arrowFaster = all.arrow < all.json;
    const lines = [
      `publish (after-answer, the default) no slower than JSON.stringify: ${ratio(result.publishAfterMs / result.stringifyMs)} — ${verdict(publish)} (before-answer: ${ratio(result.publishBeforeMs / result.stringifyMs)})`,
      `Arrow faster than JSON (all rows): ${ratio(all.arrow / all.json)} — ${verdict(arrowFaster)}`,
    ];
    if (rows >= 100_000)
      lines.push(
        `S2SP JSON ≥ 50% of bare throughput (all rows): ${((all.bare / all.json) * 100).toFixed(0)}% — ${verdict(all.bare / all.json >= 0.5)}`,
      );
    if (rows === 100_000) {
      const hundred = result.fetches[0];
      lines.push(
        `100 of 100k ≤ 2× bare: ${ratio(hundred.json / hundred.bare)} — ${verdict(hundred.json <= 2 * hundred.bare)}`,
      );
      // The reference's peak RSS was measured holding 13 columns; a wider table holds more cells than it did.
      if (columns === REFERENCE_COLUMNS) {
        const rss = (bytes: number): string => `${mib(bytes).toFixed(0)} MiB — ${verdict(mib(bytes) < RSS_TARGET_MIB)}`;
        lines.push(
          `peak server RSS < the reference's ${RSS_TARGET_MIB} MiB (it held 100k × ${REFERENCE_COLUMNS} too): glibc defaults ${rss(result.peakRssBytes)}, Dockerfile's allocator settings ${rss(result.peakRssTunedBytes)}`,
        );
      }
    }
    console.log(`- ${rows.toLocaleString('en-US')} × ${columns}: ${lines.join('; ')}`);
  }
}

function printReference(result: CaseResult | undefined): void {
  if (!result) return;
  const [hundred, tenth, all] = result.fetches;
  console.log('\n100,000 rows × 13 columns next to the reference Python SDK (its figures measured elsewhere)');
  console.log('| | Python SDK | S2SP Nest (JSON) | S2SP Nest (Arrow) | Nest JSON / Python |');
  console.log('|---|---|---|---|---|');
  const line = (name: string, python: number, json: number, arrow: number | undefined): void =>
    console.log(
      `| ${name} | ${ms(python)} | ${ms(json)} | ${arrow === undefined ? '—' : ms(arrow)} | ${ratio(json / python)} |`,
    );
  line('caching (publish, after-answer: the default) ms', PYTHON_REFERENCE.cachingMs, result.publishAfterMs, undefined);
  line('caching (publish, before-answer) ms', PYTHON_REFERENCE.cachingMs, result.publishBeforeMs, undefined);
  line('100 rows ms', PYTHON_REFERENCE.hundredRowsMs, hundred.json, hundred.arrow);
  line('10,000 rows ms', PYTHON_REFERENCE.tenThousandRowsMs, tenth.json, tenth.arrow);
  line('all rows ms', PYTHON_REFERENCE.allRowsMs, all.json, all.arrow);
  line('peak server RSS MiB (glibc defaults)', PYTHON_REFERENCE.peakRssMiB, mib(result.peakRssBytes), undefined);
  line(
    'peak server RSS MiB (Dockerfile allocator settings)',
    PYTHON_REFERENCE.peakRssMiB,
    mib(result.peakRssTunedBytes),
    undefined,
  );

  console.log(
    "\nThe same fetches as multiples of the bare node:http endpoint on each side's machine (the reference: issue 20's figures; S2SP: this run)",
  );
  console.log('| | Python SDK / its bare | S2SP JSON / bare | S2SP Arrow / bare | ahead |');
  console.log('|---|---|---|---|---|');
  const relative = (
    name: string,
    python: number,
    pythonBare: number,
    fetch: { json: number; arrow: number; bare: number },
  ): void => {
    const best = Math.min(fetch.json, fetch.arrow) / fetch.bare;
    console.log(
      `| ${name} | ${ratio(python / pythonBare)} | ${ratio(fetch.json / fetch.bare)} | ${ratio(fetch.arrow / fetch.bare)} | ${best < python / pythonBare ? 'yes' : 'no'} |`,
    );
  };
  relative('100 rows', PYTHON_REFERENCE.hundredRowsMs, REFERENCE_MACHINE_BARE.hundredRowsMs, hundred);
  relative('10,000 rows', PYTHON_REFERENCE.tenThousandRowsMs, REFERENCE_MACHINE_BARE.tenThousandRowsMs, tenth);
}
