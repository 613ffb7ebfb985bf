/** Deterministic rows for the data-plane bench: short strings, numbers, booleans and nulls, ~10–20 bytes a cell. */
export type BenchRow = Record<string, string | number | boolean | null>;

const WORDS = [
  'Wind Advisory',
  'Flood Watch',
  'Heat Advisory',
  'Moderate',
  'Severe',
  'Expected',
  'Immediate',
  'Actual',
  'Alert',
  'Met',
];

/** Column `i` cycles through four kinds: text, number, flag, and a nullable value (one in five null). */
export function benchColumnNames(columnCount: number): string[] {
  const kinds = ['text', 'number', 'flag', 'maybe'];
  return Array.from({ length: columnCount }, (_, index) => `${kinds[index % kinds.length]}_${index}`);
}

/**
 * Rows as a tool usually has them, parsed from an upstream JSON answer: objects with a
 * shared shape, and flat strings (short ones shared, as V8's JSON.parse makes them).
 * Each slice of rows goes through JSON text once. (Setting 30 computed property names one
 * by one on `{}` makes V8 turn each row into a hash table, about three times the memory
 * and slower to stringify; strings built by concatenation are trees of pieces, which
 * every reader that hashes or encodes them has to flatten first.)
 */
export function generateBenchRows(rowCount: number, columnCount: number): BenchRow[] {
  const columns = benchColumnNames(columnCount);
  const rows: BenchRow[] = new Array(rowCount);
  for (let start = 0; start < rowCount; start += PARSE_SLICE_ROWS) {
    const slice: BenchRow[] = [];
    for (let row = start; row < Math.min(rowCount, start + PARSE_SLICE_ROWS); row += 1) {
      slice.push(Object.fromEntries(columns.map((column, index) => [column, cellValue(row, index)])) as BenchRow);
    }
    (JSON.parse(JSON.stringify(slice)) as BenchRow[]).forEach((parsed, offset) => (rows[start + offset] = parsed));
  }
  return rows;
}

const PARSE_SLICE_ROWS = 10_000;

function cellValue(row: number, column: number): string | number | boolean | null {
  switch (column % 4) {
    case 0:
      return `${WORDS[(row + column) % WORDS.length]} ${row % 97}`;
    case 1:
      return column % 8 === 1 ? (row * 31 + column) % 100_000 : ((row * 7 + column) % 1000) / 8;
    case 2:
      return (row + column) % 3 === 0;
    default:
      return (row + column) % 5 === 0 ? null : column % 8 === 3 ? `maybe ${row % 13}` : row % 1000;
  }
}

/** `count` distinct row ids below `rowCount`, in a seeded random order. */
export function randomRowIds(rowCount: number, count: number, seed: number): number[] {
  const ids = Array.from({ length: rowCount }, (_, index) => index);
  let state = seed >>> 0 || 1;
  const next = (): number => {
    // xorshift32: reproducible across runs and processes.
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const take = Math.min(count, rowCount);
  for (let index = 0; index < take; index += 1) {
    const other = index + Math.floor(next() * (rowCount - index));
    [ids[index], ids[other]] = [ids[other], ids[index]];
  }
  return ids.slice(0, take);
}
