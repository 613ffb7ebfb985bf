import { readFileSync } from 'node:fs';
import { descendants } from '../soak/process-memory';

/** utime + stime of a process, in ms (clock ticks of 10 ms); 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces and parentheses: parse after its last ')'
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** cpuMs of a process and of every process under it (e.g. an embedded PostgreSQL server's backends). */
export function treeCpuMs(rootPid: number): number {
  return [rootPid, ...descendants(rootPid)].reduce((sum, pid) => sum + cpuMs(pid), 0);
}
