import { readdirSync, readFileSync } from 'node:fs';

/** Resident set size of one process in MiB (VmRSS), or undefined once it is gone. */
export function rssMiB(pid: number): number | undefined {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size of one process since it started, in MiB (VmHWM), or undefined once it is gone. */
export function peakRssMiB(pid: number): number | undefined {
  return statusField(pid, 'VmHWM');
}

/**
 * Proportional set size (shared pages split between the processes sharing
 * them) of a process and all its descendants, in MiB: the honest total for a
 * PostgreSQL server, whose every backend maps the same shared buffers.
 */
export function treePssMiB(rootPid: number): number {
  const pids = [rootPid, ...descendants(rootPid)];
  let kib = 0;
  for (const pid of pids) {
    try {
      const match = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      kib += match ? Number(match[1]) : 0;
    } catch {
      // exited meanwhile
    }
  }
  return kib / 1024;
}

/** Pids whose parent chain leads to rootPid (Linux /proc). */
export function descendants(rootPid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // the command name (field 2) may hold spaces and parentheses: parse after its last ')'
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // exited meanwhile
    }
  }
  const found: number[] = [];
  const frontier = [rootPid];
  while (frontier.length > 0) {
    const parent = frontier.pop() as number;
    for (const [pid, ppid] of parentOf) {
      if (ppid === parent) {
        found.push(pid);
        frontier.push(pid);
      }
    }
  }
  return found;
}

function statusField(pid: number, field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}
