// The style tooling, run as part of `npm test`: ESLint (eslint.config.mjs: typescript-eslint's
// strict type-checked rules) and Prettier (.prettierrc.json) over the repository's code.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';

const ROOT = join(__dirname, '..', '..', '..');

function run(bin: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [join(ROOT, 'node_modules', bin), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('ESLint finds no problem (npm run lint)', () => {
  const { status, output } = run('eslint/bin/eslint.js', ['.']);
  assert.equal(status, 0, output);
});

test('the code is formatted by Prettier (npm run format writes it)', () => {
  const { status, output } = run('prettier/bin/prettier.cjs', ['--check', '**/*.{ts,tsx,js,cjs,mjs}']);
  assert.equal(status, 0, output);
});
