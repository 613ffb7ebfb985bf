#!/usr/bin/env node
// The tests of what a change touched, for the inner loop (after one `npm run build`):
//   npm run test:changed [-- <git revision>]     (default: the working tree against HEAD)
//   node scripts/test-changed.js --files a.ts,b.md --list   (these files; print the selection, run nothing)
// A test file runs when it was changed, when it imports a changed source file directly or
// through any chain of imports (dependency-cruiser's --reaches), or when it names a changed
// file that is not code (README.md, schema.prisma, a .proto). `npm test` still runs everything.
'use strict';
const { execFileSync, spawnSync } = require('node:child_process');
const { readFileSync, readdirSync, statSync } = require('node:fs');
const { basename, join } = require('node:path');

const root = join(__dirname, '..');
const { values: flags, positionals } = require('node:util').parseArgs({
  options: { files: { type: 'string' }, list: { type: 'boolean' } },
  allowPositionals: true,
});
const base = positionals[0] ?? 'HEAD';
const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);

const changed = (
  flags.files !== undefined
    ? flags.files.split(',').filter(Boolean)
    : [...new Set([...git('diff', '--name-only', base, '--'), ...git('ls-files', '--others', '--exclude-standard')])]
).filter((file) => !file.startsWith('dist/'));
const since = flags.files !== undefined ? 'as given' : `since ${base}`;
if (changed.length === 0) {
  console.error(`test:changed: nothing changed ${since}`);
  process.exit(0);
}

function testSources(dir) {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory())
      return path.startsWith(join('test', 'packaging', 'apps')) ? [] : testSources(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const code = changed.filter((file) => /\.ts$/.test(file) && /^(libs|apps|test|bench|scripts)\//.test(file));
const selected = new Set(code.filter((file) => file.endsWith('.test.ts')));
if (code.length > 0) {
  const escaped = code.map((file) => file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const report = execFileSync(
    process.execPath,
    [
      join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs'),
      'test',
      '--config',
      join(root, '.dependency-cruiser.cjs'),
      '--reaches',
      `^(${escaped.join('|')})$`,
      '--output-type',
      'json',
    ],
    { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  for (const module of JSON.parse(report).modules) if (module.source.endsWith('.test.ts')) selected.add(module.source);
}
const other = changed.filter((file) => !/\.(ts|js)$/.test(file));
if (other.length > 0) {
  for (const test of testSources('test')) {
    const text = readFileSync(join(root, test), 'utf8');
    if (other.some((file) => text.includes(basename(file)))) selected.add(test);
  }
}

const files = [...selected].sort().map((file) => file.replace(/\.ts$/, '.js'));
console.error(`test:changed: ${changed.length} changed file(s) ${since}; ${files.length} test file(s):`);
for (const file of files) (flags.list ? console.log : console.error)(`  ${file}`);
if (files.length === 0 || flags.list) process.exit(0);
const result = spawnSync(process.execPath, [join(__dirname, 'run-tests.js'), ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
