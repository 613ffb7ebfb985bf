import { execFileSync } from 'node:child_process';

export interface OsUserIds {
  uid: number;
  gid: number;
}

/**
 * The user the PostgreSQL server runs as. PostgreSQL refuses to run as root,
 * so a root process runs it as `name` (default `postgres`); anyone else runs
 * it as themselves (undefined).
 */
export function postgresOsUser(name: string): OsUserIds | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  try {
    const id = (flag: string) => Number.parseInt(execFileSync('id', [flag, name], { encoding: 'utf8' }).trim(), 10);
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    throw new Error(
      `PostgreSQL cannot run as root and there is no OS user "${name}" to run the embedded server as: ` +
        `create one (useradd ${name}), run as a non-root user, or set DATABASE_URL`,
    );
  }
}
