// The apps as separate processes (their compiled main.js), as a deployment runs
// them: for tests of several replicas sharing PostgreSQL and Redis.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const DIST_ROOT = join(__dirname, '..', '..');

export type AppName = 'gateway' | 'agents' | 'weather-server' | 'stats-server';

export interface AppProcess {
  /** e.g. "gateway-1". */
  label: string;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
  exited(): boolean;
  /** SIGTERM, then SIGKILL if it is still running after `graceMs`; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL, as a crash would; resolves once it has exited. */
  kill(): Promise<void>;
}

/** Children still running: killed if this process ends without stopping them (a test file that timed out). */
const running = new Set<ChildProcess>();
let safetyNetInstalled = false;

function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
}

function installSafetyNet(): void {
  if (safetyNetInstalled) return;
  safetyNetInstalled = true;
  process.once('exit', killLeftovers);
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      killLeftovers();
      process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    });
  }
}

/**
 * Starts `node dist/apps/<app>/src/main.js` with `env` on top of this process's
 * environment. If this process ends first, the app is killed with it.
 */
export function startApp(app: AppName, label: string, env: NodeJS.ProcessEnv, cwd: string): AppProcess {
  const child: ChildProcess = spawn(process.execPath, [join(DIST_ROOT, 'apps', app, 'src', 'main.js')], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  installSafetyNet();
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    label,
    output: () => output,
    exited: () => !alive(),
    async kill() {
      if (!alive()) return;
      child.kill('SIGKILL');
      await exit;
    },
    async stop(graceMs = 10_000) {
      if (!alive()) return;
      child.kill('SIGTERM');
      const killer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exit;
      clearTimeout(killer);
    },
  };
}

/**
 * Polls `url` until `ready(response)` holds; fails early, with the output of
 * the processes, if one of them exits, and after `timeoutMs` (a bound for a
 * stuck start on a loaded machine, not a timing claim).
 */
export async function waitUntilReady(
  url: string,
  ready: (response: Response) => Promise<boolean>,
  processes: AppProcess[],
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastAnswer = 'no answer';
  for (;;) {
    const dead = processes.find((process) => process.exited());
    if (dead) throw new Error(`${dead.label} exited before ${url} was ready:\n${dead.output()}`);
    try {
      const response = await fetch(url);
      lastAnswer = `${response.status} ${await response.clone().text()}`;
      if (await ready(response)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${url} not ready within ${timeoutMs} ms (last answer: ${lastAnswer}):\n${processes.map((process) => `--- ${process.label}\n${process.output()}`).join('\n')}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
