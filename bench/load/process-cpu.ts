import { readFileSync } from 'node:fs';
import { descendants } from '../soak/process-memory';

/** Positions in /proc/<pid>/stat after the command name: the process's own CPU, then its reaped children's. */
const OWN_CPU_FIELDS = [11, 12]; // utime, stime
const OWN_AND_REAPED_CPU_FIELDS = [11, 12, 13, 14]; // utime, stime, cutime, cstime

/** The sum of `fields` of /proc/<pid>/stat, in ms (clock ticks of 10 ms); 0 once the process is gone. */
function statCpuMs(pid: number, fields: readonly number[]): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: parse after its last ')'
    const values = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.reduce((sum, field) => sum + Number(values[field]), 0) * 10;
  } catch {
    return 0;
  }
}

/** utime + stime of a process, in ms; 0 once it is gone. */
export function cpuMs(pid: number): number {
  return statCpuMs(pid, OWN_CPU_FIELDS);
}

/**
 * CPU of a process and of every process under it (e.g. an embedded PostgreSQL server's backends),
 * in ms, counting those that have exited too: a process reaped by its parent leaves its CPU in the
 * parent's cutime + cstime, so a backend closed during a measurement does not take its CPU out of
 * the sum.
 */
export function treeCpuMs(rootPid: number): number {
  return [rootPid, ...descendants(rootPid)].reduce((sum, pid) => sum + statCpuMs(pid, OWN_AND_REAPED_CPU_FIELDS), 0);
}
