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

/** Whether a process with this pid exists (EPERM: it exists but belongs to someone else). */
export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
