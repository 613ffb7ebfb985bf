// Property-based fuzzing with fast-check: every target runs FUZZ_RUNS cases
// (10 000 unless told), within FUZZ_BUDGET_MS of time (20 s unless told; 0: no limit),
// from FUZZ_SEED (random unless told), and a failure names the seed, the shrink path
// and the command that replays it.
import fc from 'fast-check';

/** Cases per target when FUZZ_RUNS is unset: what CI runs with the ordinary test suite. */
export const DEFAULT_FUZZ_RUNS = 10_000;

/**
 * Time per target when FUZZ_BUDGET_MS is unset: `npm test` stops a target there, whatever the
 * machine's load, with the cases run so far (all passed); `npm run fuzz` runs without a limit.
 */
export const DEFAULT_FUZZ_BUDGET_MS = 20_000;

export interface FuzzSettings {
  numRuns: number;
  /** Time per target, ms; 0: none. */
  budgetMs: number;
  seed: number;
  /** A shrink path from an earlier failure: replays just that counterexample. */
  path?: string;
}

/** The settings of this process, from FUZZ_RUNS, FUZZ_SEED and FUZZ_PATH (set by `npm run fuzz`). */
export function fuzzSettings(env: NodeJS.ProcessEnv = process.env): FuzzSettings {
  const numRuns = env.FUZZ_RUNS === undefined || env.FUZZ_RUNS === '' ? DEFAULT_FUZZ_RUNS : Number(env.FUZZ_RUNS);
  if (!Number.isSafeInteger(numRuns) || numRuns < 1)
    throw new RangeError(`FUZZ_RUNS must be a positive integer, got ${env.FUZZ_RUNS}`);
  const budgetMs =
    env.FUZZ_BUDGET_MS === undefined || env.FUZZ_BUDGET_MS === '' ? DEFAULT_FUZZ_BUDGET_MS : Number(env.FUZZ_BUDGET_MS);
  if (!Number.isSafeInteger(budgetMs) || budgetMs < 0)
    throw new RangeError(`FUZZ_BUDGET_MS must be a non-negative integer, got ${env.FUZZ_BUDGET_MS}`);
  const seed = env.FUZZ_SEED === undefined || env.FUZZ_SEED === '' ? randomSeed() : Number(env.FUZZ_SEED);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`FUZZ_SEED must be an integer, got ${env.FUZZ_SEED}`);
  return { numRuns, budgetMs, seed, ...(env.FUZZ_PATH ? { path: env.FUZZ_PATH } : {}) };
}

function randomSeed(): number {
  return (Date.now() ^ (Math.random() * 0x100000000)) | 0;
}

let settings: FuzzSettings | undefined;

/** The one set of settings every target of this process shares, logged once. */
function currentSettings(): FuzzSettings {
  if (!settings) {
    settings = fuzzSettings();
    console.log(
      `fuzz: ${settings.numRuns} runs per target${settings.budgetMs > 0 ? ` within ${settings.budgetMs} ms` : ''}, seed ${settings.seed}${settings.path ? `, path ${settings.path}` : ''}`,
    );
  }
  return settings;
}

/** Text of a failed run: target, seed, path, the replay command, then fast-check's own report. */
export function failureReport(target: string, details: fc.RunDetails<unknown>, numRuns: number): string {
  const replay = `npm run fuzz -- --runs ${numRuns} --seed ${details.seed}${details.counterexamplePath ? ` --path ${details.counterexamplePath}` : ''}`;
  return [
    `fuzz target "${target}" failed: seed ${details.seed}, path ${details.counterexamplePath ?? '(none)'}`,
    `replay: ${replay}`,
    `error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
    // A counterexample may be megabytes of text: each line is cut short.
    ...(fc.defaultReportMessage(details) ?? '')
      .split('\n')
      .map((line) => (line.length > 2000 ? `${line.slice(0, 2000)}… (${line.length} characters)` : line)),
  ].join('\n');
}

/** Runs `property` with this process's settings; throws a report naming seed and path on failure. */
export async function fuzz<T>(target: string, property: fc.IAsyncProperty<T> | fc.IProperty<T>): Promise<void> {
  const { numRuns, budgetMs, seed, path } = currentSettings();
  const started = Date.now();
  const details = await fc.check(property as fc.IAsyncProperty<T>, {
    numRuns,
    seed,
    // Out of time is not a failure: the cases run so far all passed, and the log says how many.
    ...(budgetMs > 0 && !path ? { interruptAfterTimeLimit: budgetMs, markInterruptAsFailure: false } : {}),
    ...(path ? { path, endOnFailure: true } : {}),
  });
  const stopped = details.interrupted ? `, stopped by the ${budgetMs} ms budget` : '';
  console.log(`fuzz: ${target}: ${details.numRuns} runs in ${Date.now() - started} ms (seed ${seed}${stopped})`);
  if (details.failed) {
    const report = failureReport(target, details as fc.RunDetails<unknown>, numRuns);
    console.error(report);
    throw new Error(report);
  }
}

/** Member names that reach for the prototype chain when code assigns them. */
export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

export const quotedJson = (text: string): string => JSON.stringify(text);

/** JSON text of an object written member by member, so `__proto__` and duplicate names reach the parser. */
export const objectText = (entries: ReadonlyArray<readonly [string, string]>): string =>
  `{${entries.map(([key, value]) => `${quotedJson(key)}:${value}`).join(',')}}`;

/** Strings of any code points (lone surrogates too), and the prototype keys. */
export const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(...PROTOTYPE_KEYS));

/** JSON number text, with the spellings that overflow, underflow or lose precision. */
export const numberText = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => JSON.stringify(value)),
  fc.constantFrom('-0', '1e400', '-1e400', '1E2', '0.1e-999', '9007199254740993', '1.5'),
);

export const leafText = fc.oneof(fc.constantFrom('null', 'true', 'false'), numberText, anyString.map(quotedJson));

/** JSON text of any value; member names are drawn from `names`, the prototype keys and short strings. */
export function jsonText(names: readonly string[] = []): fc.Arbitrary<string> {
  const memberName = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...names), fc.string({ maxLength: 6 }));
  return fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
    value: fc.oneof({ maxDepth: 5, depthSize: 'small', withCrossShrink: true }, leafText, tie('array'), tie('object')),
    array: fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    object: fc.array(fc.tuple(memberName, tie('value')), { maxLength: 4 }).map(objectText),
  })).value;
}

/**
 * A test timeout that grows with the number of runs (`msPerCase` each, on a
 * loaded machine), never under the suite's usual 180 s: long runs are meant to
 * be long, while a hung exchange still fails on its own per-request timeout.
 */
export function fuzzTimeout(msPerCase: number): number {
  return Math.max(180_000, currentSettings().numRuns * msPerCase);
}
