export interface BenchCase {
  rows: number;
  columns: number;
  /** Measured runs per figure; the median is printed. */
  runs: number;
}

const SIZE = /^(\d+)(k|m)?$/i;

/** `1k,10k,100k,1m` → cases of 30 columns, plus 100k × 13 (the reference SDK's shape) when 100k is among them. */
export function parseBenchSizes(rawSizes: string | undefined, rawRuns: string | undefined): BenchCase[] {
  const sizes = (rawSizes ?? '1k,10k,100k').split(',').map((raw) => {
    const match = SIZE.exec(raw.trim());
    if (!match)
      throw new Error(`data-plane-bench: a size is a row count like 1000, 10k or 1m, got ${JSON.stringify(raw)}.`);
    return Number(match[1]) * (match[2]?.toLowerCase() === 'm' ? 1_000_000 : match[2] ? 1_000 : 1);
  });
  const runsOverride = rawRuns === undefined ? undefined : Number(rawRuns);
  if (runsOverride !== undefined && (!Number.isSafeInteger(runsOverride) || runsOverride < 1)) {
    throw new Error(`data-plane-bench: runs must be a positive integer, got ${JSON.stringify(rawRuns)}.`);
  }
  const runsFor = (rows: number): number => runsOverride ?? (rows >= 1_000_000 ? 2 : 5);
  const cases = [...new Set(sizes)].sort((a, b) => a - b).map((rows) => ({ rows, columns: 30, runs: runsFor(rows) }));
  if (sizes.includes(100_000)) cases.push({ rows: 100_000, columns: 13, runs: runsFor(100_000) });
  return cases;
}

/** Fetches of up to this many rows get SMALL_FETCH_RUN_FACTOR times the runs. */
export const SMALL_FETCH_ROWS = 1_000;
export const SMALL_FETCH_RUN_FACTOR = 3;

/**
 * Runs of one fetch figure. A fetch of a few rows takes milliseconds, so its median over a
 * handful of runs moves with whatever else the machine does; it is cheap to repeat.
 */
export function fetchRuns(benchCase: BenchCase, selectedRows: number): number {
  return selectedRows <= SMALL_FETCH_ROWS ? benchCase.runs * SMALL_FETCH_RUN_FACTOR : benchCase.runs;
}
