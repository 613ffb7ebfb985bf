// The CPU the benchmarks attribute to a server: its process tree's, those of its processes that
// exited during the measurement included (bench/load/process-cpu.ts).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { cpuMs, treeCpuMs } from '../../bench/load/process-cpu';
import { descendants } from '../../bench/soak/process-memory';
import { eventually } from '../support/eventually';

/** The command names of the processes under `pid`. */
function commandsUnder(pid: number): string[] {
  return descendants(pid).flatMap((child) => {
    try {
      return [readFileSync(`/proc/${child}/comm`, 'utf8').trim()];
    } catch {
      return [];
    }
  });
}

test('a process that exits under the root keeps its CPU in the tree’s sum', async () => {
  // The parent outlives its child, which burns a fixed amount of CPU and exits, as a database
  // backend closed in the middle of a benchmark phase does.
  const burn = 'let x = 0; for (let i = 0; i < 3e8; i++) x += i; if (x < 0) console.log(x);';
  const parent = spawn('sh', ['-c', `"${process.execPath}" -e "${burn}"; exec sleep 30`], { stdio: 'ignore' });
  try {
    const root = parent.pid!;
    await eventually('the child started', () => commandsUnder(root).includes('node'));
    await eventually('the child exited', () => !commandsUnder(root).includes('node'), 60_000);
    assert.ok(cpuMs(root) < 100, `the root itself did next to nothing: ${cpuMs(root)} ms`);
    assert.ok(treeCpuMs(root) >= 100, `the exited child's CPU is still counted: ${treeCpuMs(root)} ms`);
  } finally {
    parent.kill();
  }
});
