import { readFileSync } from 'node:fs';
import { descendants } from '../soak/process-memory';

/** The fields of /proc/<pid>/stat after the command name, or undefined once the process is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: parse after its last ')'
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** utime + stime of a process, in ms (clock ticks of 10 ms); 0 once it is gone. */
export function cpuMs(pid: number): number {
  const fields = statFields(pid);
  return fields ? (Number(fields[11]) + Number(fields[12])) * 10 : 0;
}

/**
 * CPU of a process and of every process under it (e.g. an embedded PostgreSQL server's backends),
 * in ms, counting those that have exited too: a process reaped by its parent leaves its CPU in the
 * parent's cutime + cstime, so a backend closed during a measurement does not take its CPU out of
 * the sum.
 */
export function treeCpuMs(rootPid: number): number {
  return [rootPid, ...descendants(rootPid)].reduce((sum, pid) => {
    const fields = statFields(pid);
    return fields
      ? sum + (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10
      : sum;
  }, 0);
}
