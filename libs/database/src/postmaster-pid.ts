import * as fs from 'node:fs';
import * as path from 'node:path';

/** What PostgreSQL's `postmaster.pid` lock file says about the server owning a cluster directory. */
export interface PostmasterPid {
  pid: number;
  port: number;
  /** `starting`, `ready`, `stopping` or `standby` (the file's 8th line). */
  status: string;
}

/** The parsed lock file, or null when no server has the directory locked. */
export function readPostmasterPid(clusterDir: string): PostmasterPid | null {
  let text: string;
  try {
    text = fs.readFileSync(path.join(clusterDir, 'postmaster.pid'), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const lines = text.split('\n');
  const pid = Number.parseInt(lines[0] ?? '', 10);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  return { pid, port: Number.parseInt(lines[3] ?? '', 10), status: (lines[7] ?? '').trim() };
}

/**
 * Whether a process with this pid runs (EPERM: it exists but belongs to someone
 * else). A zombie does not count: a server orphaned by a killed owner is
 * re-parented, and its new parent may be slow (or fail) to reap it.
 */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !isZombie(pid);
}

function isZombie(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the state follows the command name, which may hold spaces and parentheses
    return /^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false; // no /proc (not Linux), or gone meanwhile
  }
}
