/**
 * Micro-measurement: a data-plane answer of 100,000 rows × 30 columns, encoded and decoded
 * as an Arrow IPC stream (libs/s2sp/src/data-plane/arrow/) versus JSON.stringify + JSON.parse
 * of the JSON answer `{ body, total_rows, columns_returned }`.
 *
 *   npm run build && node dist/bench/data-plane/arrow-vs-json.js [rows] [runs]
 */
import { Buffer } from 'node:buffer';
import { performance } from 'node:perf_hooks';
import { encodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/encode-arrow-stream';
import { decodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';

type Row = Record<string, unknown>;

const WORDS = ['Wind Advisory', 'Flood Watch', 'Heat Advisory', 'Moderate', 'Severe', 'Expected', 'Immediate', 'Actual', 'Alert', 'Met'];

function positiveInteger(raw: string | undefined, fallback: number, what: string): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`arrow-vs-json: ${what} must be a positive integer, got ${JSON.stringify(raw)}.`);
  return value;
}

/** 10 short-string, 10 number, 5 boolean and 5 nullable columns; deterministic. */
function generateTable(rowCount: number): { columns: string[]; rows: Row[] } {
  const columns = [
    ...Array.from({ length: 10 }, (_, index) => `text_${index}`),
    ...Array.from({ length: 10 }, (_, index) => `number_${index}`),
    ...Array.from({ length: 5 }, (_, index) => `flag_${index}`),
    ...Array.from({ length: 5 }, (_, index) => `maybe_${index}`),
  ];
  const rows = Array.from({ length: rowCount }, (_, row) => {
    const cells: Row = {};
    for (let index = 0; index < 10; index += 1) cells[`text_${index}`] = `${WORDS[(row + index) % WORDS.length]} ${row % 97}`;
    for (let index = 0; index < 10; index += 1) cells[`number_${index}`] = index % 2 === 0 ? (row * 31 + index) % 100_000 : ((row * 7 + index) % 1000) / 8;
    for (let index = 0; index < 5; index += 1) cells[`flag_${index}`] = (row + index) % 3 === 0;
    for (let index = 0; index < 5; index += 1) {
      const isNull = (row + index) % 5 === 0;
      cells[`maybe_${index}`] = isNull ? null : index % 2 === 0 ? `maybe ${row % 13}` : row % 1000;
    }
    return cells;
  });
  return { columns, rows };
}

interface Measurement {
  encodeMs: number;
  decodeMs: number;
  bytes: number;
}

async function* sourceOf(chunks: readonly Uint8Array[]): AsyncGenerator<Uint8Array> {
  yield* chunks;
}

async function measureArrow(columns: readonly string[], rows: readonly Row[]): Promise<Measurement> {
  const started = performance.now();
  const chunks = [...encodeArrowStream(columns, rows.length, (row, column) => rows[row]![columns[column]!], (row) => row)];
  const encoded = performance.now();
  const decoded = await decodeArrowStream(sourceOf(chunks), { maxBytes: Number.MAX_SAFE_INTEGER });
  const finished = performance.now();
  if (decoded.rows.length !== rows.length) throw new Error('arrow-vs-json: the Arrow round trip lost rows.');
  return { encodeMs: encoded - started, decodeMs: finished - encoded, bytes: chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0) };
}

async function measureJson(columns: readonly string[], rows: readonly Row[]): Promise<Measurement> {
  const started = performance.now();
  // The JSON answer's rows carry _row_id first, as the data plane builds them.
  const body = rows.map((row, rowId) => ({ _row_id: rowId, ...row }));
  const bytes = Buffer.from(JSON.stringify({ body, total_rows: rows.length, columns_returned: ['_row_id', ...columns] }), 'utf8');
  const encoded = performance.now();
  const decoded = JSON.parse(bytes.toString('utf8')) as { body: Row[] };
  const finished = performance.now();
  if (decoded.body.length !== rows.length) throw new Error('arrow-vs-json: the JSON round trip lost rows.');
  return { encodeMs: encoded - started, decodeMs: finished - encoded, bytes: bytes.byteLength };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function medianOf(runs: number, measure: () => Promise<Measurement>): Promise<Measurement> {
  await measure(); // warm-up, not counted
  const results: Measurement[] = [];
  for (let run = 0; run < runs; run += 1) results.push(await measure());
  return {
    encodeMs: median(results.map((result) => result.encodeMs)),
    decodeMs: median(results.map((result) => result.decodeMs)),
    bytes: results[0]!.bytes,
  };
}

async function main(): Promise<void> {
  const rowCount = positiveInteger(process.argv[2], 100_000, 'the row count');
  const runs = positiveInteger(process.argv[3], 3, 'the number of runs');
  const { columns, rows } = generateTable(rowCount);
  const arrow = await medianOf(runs, () => measureArrow(columns, rows));
  const json = await medianOf(runs, () => measureJson(columns, rows));
  const line = (name: string, result: Measurement): string =>
    `${name.padEnd(6)} encode ${result.encodeMs.toFixed(0).padStart(6)} ms  decode ${result.decodeMs.toFixed(0).padStart(6)} ms  total ${(result.encodeMs + result.decodeMs).toFixed(0).padStart(6)} ms  ${(result.bytes / 1e6).toFixed(2).padStart(7)} MB`;
  console.log(`${rowCount.toLocaleString('en-US')} rows × ${columns.length} columns, median of ${runs} runs (after a warm-up), Node ${process.version}`);
  console.log(line('arrow', arrow));
  console.log(line('json', json));
  const ratio = (a: number, b: number): string => (a / b).toFixed(2);
  console.log(
    `arrow/json: encode ${ratio(arrow.encodeMs, json.encodeMs)}×, decode ${ratio(arrow.decodeMs, json.decodeMs)}×, ` +
      `total ${ratio(arrow.encodeMs + arrow.decodeMs, json.encodeMs + json.decodeMs)}×, bytes ${ratio(arrow.bytes, json.bytes)}×`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
