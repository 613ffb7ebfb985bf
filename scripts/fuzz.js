#!/usr/bin/env node
// `npm run fuzz -- [--runs N] [--seed S] [--path P] [filter]`: builds, then runs
// only the property-based fuzz tests (dist/test/fuzz), N cases per target from
// seed S (random and printed when not given). A failure prints the seed and
// shrink path that replay it; pass a filter (part of a file name) with --path
// so that only the failing target replays.
'use strict';
const { readdirSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

function parseArgs(argv) {
  const options = { filter: undefined };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const [name, inline] = arg.startsWith('--') ? arg.slice(2).split('=', 2) : [undefined, undefined];
    if (name === 'runs' || name === 'seed' || name === 'path') {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new Error(`--${name} needs a value`);
      options[name] = value;
    } else if (name === 'no-build') {
      options.noBuild = true;
    } else if (name !== undefined) {
      throw new Error(`unknown option --${name} (use --runs, --seed, --path, --no-build)`);
    } else {
      options.filter = arg;
    }
  }
  if (options.runs !== undefined && !/^[1-9]\d*$/.test(options.runs))
    throw new Error(`--runs must be a positive integer, got ${options.runs}`);
  if (options.seed !== undefined && !/^-?\d+$/.test(options.seed))
    throw new Error(`--seed must be an integer, got ${options.seed}`);
  return options;
}

let options;
try {
  options = parseArgs(process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
const root = join(__dirname, '..');
if (!options.noBuild) {
  const build = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')],
    { stdio: 'inherit', cwd: root },
  );
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const dir = join(root, 'dist', 'test', 'fuzz');
const files = readdirSync(dir)
  .filter((name) => name.endsWith('.test.js') && (!options.filter || name.includes(options.filter)))
  .sort()
  .map((name) => join(dir, name));
if (files.length === 0) {
  console.error(`No fuzz test matches ${options.filter ?? '(any)'} in ${dir}.`);
  process.exit(1);
}
// One seed for every file of the run, printed here so that a run can always be replayed.
const seed = options.seed ?? String((Date.now() ^ (Math.random() * 0x100000000)) | 0);
const env = {
  ...process.env,
  LOG_LEVELS: process.env.LOG_LEVELS ?? 'error,warn',
  FUZZ_SEED: seed,
  ...(options.runs ? { FUZZ_RUNS: options.runs } : {}),
  ...(options.path ? { FUZZ_PATH: options.path } : {}),
  // Long runs are the point here: no time budget per target (npm test has one).
  FUZZ_BUDGET_MS: '0',
};
console.log(`fuzz: seed ${seed}, ${options.runs ?? 'default'} runs per target, ${files.length} file(s)`);
// Files one after another (the HTTP targets share the machine's cores); no test timeout (the default), long runs are the point.
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...files], { stdio: 'inherit', env });
if (result.status !== 0)
  console.error(
    `fuzz: failed; replay with: npm run fuzz -- --runs ${options.runs ?? '<N>'} --seed ${seed} [--path <path>] <file filter>`,
  );
process.exit(result.status ?? 1);
