/**
 * Micro-measurement: a data-plane answer of 100,000 rows × 30 columns, encoded and decoded
 * as an Arrow IPC stream (libs/s2sp/src/data-plane/arrow/) versus JSON.stringify + JSON.parse
 * of the JSON answer `{ body, total_rows, columns_returned }`.
 *
 *   npm run build && node dist/bench/data-plane/arrow-vs-json.js [rows] [runs]
 *
 * Wall time and the process's CPU time (user + system, GC threads included) are both
 * reported: on a shared machine the CPU time is the steadier of the two.
 */
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { encodeArrowSlices } from '../../libs/s2sp/src/data-plane/arrow/encode-arrow-stream';
import { decodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';
import { TableSelection } from '../../libs/s2sp/src/data-plane/table-selection';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';
import { benchColumnNames, generateBenchRows } from './bench-rows';

type Row = Record<string, unknown>;

const COLUMN_COUNT = 30;

function positiveInteger(raw: string | undefined, fallback: number, what: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`arrow-vs-json: ${what} must be a positive integer, got ${JSON.stringify(raw)}.`);
  return value;
}

interface Measurement {
  encodeMs: number;
  decodeMs: number;
  encodeCpuMs: number;
  decodeCpuMs: number;
  bytes: number;
}

/** Wall and CPU milliseconds between laps. */
class Stopwatch {
  private wall = performance.now();
  private cpu = process.cpuUsage();

  lap(): { wallMs: number; cpuMs: number } {
    const cpu = process.cpuUsage(this.cpu);
    const wallMs = performance.now() - this.wall;
    this.wall = performance.now();
    this.cpu = process.cpuUsage();
    return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
  }
}

async function* sourceOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function measureArrow(columns: readonly string[], rows: readonly Row[]): Promise<Measurement> {
  const stopwatch = new Stopwatch();
  // As the data plane answers: every row, every column, cells read a batch at a time.
  const selection = new TableSelection(ResourceTable.of(rows, columns), null, columns, true);
  const chunks = [
    ...encodeArrowSlices(
      columns,
      rows.length,
      (start, end, into) => selection.readCells(start, end, into),
      (row) => row,
    ),
  ];
  const encode = stopwatch.lap();
  const decoded = await decodeArrowStream(sourceOf(chunks), { maxBytes: Number.MAX_SAFE_INTEGER });
  const decode = stopwatch.lap();
  if (decoded.rows.length !== rows.length) throw new Error('arrow-vs-json: the Arrow round trip lost rows.');
  const bytes = chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0);
  return {
    encodeMs: encode.wallMs,
    decodeMs: decode.wallMs,
    encodeCpuMs: encode.cpuMs,
    decodeCpuMs: decode.cpuMs,
    bytes,
  };
}

async function measureJson(columns: readonly string[], rows: readonly Row[]): Promise<Measurement> {
  const stopwatch = new Stopwatch();
  // The JSON answer's rows carry _row_id first, as the data plane builds them.
  const body = rows.map((row, rowId) => ({ _row_id: rowId, ...row }));
  const bytes = Buffer.from(
    JSON.stringify({ body, total_rows: rows.length, columns_returned: ['_row_id', ...columns] }),
    'utf8',
  );
  const encode = stopwatch.lap();
  const decoded = JSON.parse(bytes.toString('utf8')) as { body: Row[] };
  const decode = stopwatch.lap();
  if (decoded.body.length !== rows.length) throw new Error('arrow-vs-json: the JSON round trip lost rows.');
  return {
    encodeMs: encode.wallMs,
    decodeMs: decode.wallMs,
    encodeCpuMs: encode.cpuMs,
    decodeCpuMs: decode.cpuMs,
    bytes: bytes.byteLength,
  };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A warm-up on a tenth of the rows, then the median of `runs` measured runs. */
async function medianOf(
  runs: number,
  warmUp: () => Promise<Measurement>,
  measure: () => Promise<Measurement>,
): Promise<Measurement> {
  await warmUp();
  const results: Measurement[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await measure());
  const medianOfField = (field: keyof Measurement): number => median(results.map((result) => result[field]));
  return {
    encodeMs: medianOfField('encodeMs'),
    decodeMs: medianOfField('decodeMs'),
    encodeCpuMs: medianOfField('encodeCpuMs'),
    decodeCpuMs: medianOfField('decodeCpuMs'),
    bytes: results[0].bytes,
  };
}

function formatLine(name: string, result: Measurement): string {
  const ms = (value: number): string => value.toFixed(0).padStart(6);
  return (
    `${name.padEnd(6)} encode ${ms(result.encodeMs)} ms (cpu ${ms(result.encodeCpuMs)})  decode ${ms(result.decodeMs)} ms (cpu ${ms(result.decodeCpuMs)})  ` +
    `total ${ms(result.encodeMs + result.decodeMs)} ms (cpu ${ms(result.encodeCpuMs + result.decodeCpuMs)})  ${(result.bytes / 1e6).toFixed(2).padStart(7)} MB`
  );
}

async function main(): Promise<void> {
  const rowCount = positiveInteger(process.argv[2], 100_000, 'the row count');
  const runs = positiveInteger(process.argv[3], 1, 'the number of runs');
  const columns = benchColumnNames(COLUMN_COUNT);
  const rows: Row[] = generateBenchRows(rowCount, COLUMN_COUNT);
  const warmUpRows = rows.slice(0, Math.max(1, Math.floor(rowCount / 10)));
  const arrow = await medianOf(
    runs,
    () => measureArrow(columns, warmUpRows),
    () => measureArrow(columns, rows),
  );
  const json = await medianOf(
    runs,
    () => measureJson(columns, warmUpRows),
    () => measureJson(columns, rows),
  );
  console.log(
    `${rowCount.toLocaleString('en-US')} rows × ${columns.length} columns, median of ${runs} runs after a warm-up, Node ${process.version}`,
  );
  console.log(formatLine('arrow', arrow));
  console.log(formatLine('json', json));
  const ratio = (a: number, b: number): string => (a / b).toFixed(2);
  console.log(
    `arrow/json: encode ${ratio(arrow.encodeMs, json.encodeMs)}× (cpu ${ratio(arrow.encodeCpuMs, json.encodeCpuMs)}×), ` +
      `decode ${ratio(arrow.decodeMs, json.decodeMs)}× (cpu ${ratio(arrow.decodeCpuMs, json.decodeCpuMs)}×), ` +
      `total ${ratio(arrow.encodeMs + arrow.decodeMs, json.encodeMs + json.decodeMs)}× ` +
      `(cpu ${ratio(arrow.encodeCpuMs + arrow.decodeCpuMs, json.encodeCpuMs + json.decodeCpuMs)}×), bytes ${ratio(arrow.bytes, json.bytes)}×`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
