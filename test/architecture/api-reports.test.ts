import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'api-reports.js');

function run(...args: string[]): { status: number | null; output: string } {
  const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('each library’s public API matches its committed report (libs/<name>/api/<name>.api.md)', () => {
  const { status, output } = run();
  assert.equal(status, 0, output);
});

test('a change to a public API fails the check until the report is updated', () => {
  const dir = mkdtempSync(join(tmpdir(), 's2sp-api-report-'));
  try {
    const committed = readFileSync(join(ROOT, 'libs', 'platform', 'api', 'platform.api.md'), 'utf8');
    // As if envString had just been added to @s2sp/platform: the committed report does not list it.
    writeFileSync(
      join(dir, 'platform.api.md'),
      committed.replace(/\n\/\/ @(public|beta|internal)[^\n]*\nexport function envString[^\n]*\n/, '\n'),
    );
    const { status, output } = run('--only', 'platform', '--report-folder', dir);
    assert.equal(status, 1, output);
    assert.match(output, /the public API of platform changed/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
