import * as fs from 'node:fs';
import * as path from 'node:path';
import type { OsUserIds } from './postgres-os-user';

/**
 * When a root process runs the server as another OS user, that user must be
 * able to reach the cluster and own its files:
 * - every ancestor of the data directory must be searchable by it (checked,
 *   never changed: a clear error names the one that is not);
 * - the data directory itself, which is the database's, gets search-only
 *   permission for others when it lacks it (e.g. a 0700 mkdtemp folder);
 * - a cluster whose files belong to someone else (copied or restored by root)
 *   is given back to the server's user.
 */
export async function grantServerUserAccess(
  dataDir: string,
  clusterDir: string,
  user: OsUserIds,
  userName: string,
): Promise<void> {
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    const stat = await fs.promises.stat(dir);
    if (!isSearchableBy(stat, user)) {
      throw new Error(
        `The embedded PostgreSQL server runs as OS user "${userName}" (PostgreSQL refuses root) and cannot reach ${dataDir}: ` +
          `${dir} is not searchable by it (mode ${(stat.mode & 0o777).toString(8)}); choose a data directory outside it, or chmod o+x ${dir}`,
      );
    }
    if (dir === path.dirname(dir)) break;
  }
  const own = await fs.promises.stat(dataDir);
  if (!isSearchableBy(own, user)) await fs.promises.chmod(dataDir, (own.mode & 0o7777) | 0o001);

  const cluster = await fs.promises.stat(clusterDir).catch(() => undefined);
  if (cluster && cluster.uid !== user.uid) await chownTree(clusterDir, user);
}

function isSearchableBy(stat: fs.Stats, user: OsUserIds): boolean {
  if (stat.uid === user.uid) return (stat.mode & 0o100) !== 0;
  if (stat.gid === user.gid) return (stat.mode & 0o010) !== 0;
  return (stat.mode & 0o001) !== 0;
}

async function chownTree(target: string, user: OsUserIds): Promise<void> {
  await fs.promises.lchown(target, user.uid, user.gid);
  const stat = await fs.promises.lstat(target);
  if (!stat.isDirectory()) return;
  for (const entry of await fs.promises.readdir(target)) await chownTree(path.join(target, entry), user);
}
