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
}

/** Starts `node dist/apps/<app>/src/main.js` with `env` on top of this process's environment. */
export function startApp(app: AppName, label: string, env: NodeJS.ProcessEnv, cwd: string): AppProcess {
  const child: ChildProcess = spawn(process.execPath, [join(DIST_ROOT, 'apps', app, 'src', 'main.js')], {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString('utf8'));
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    label,
    output: () => output,
    exited: () => !running(),
    async stop(graceMs = 10_000) {
      if (!running()) return;
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
export async function waitUntilReady(url: string, ready: (response: Response) => Promise<boolean>, processes: AppProcess[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const dead = processes.find((process) => process.exited());
    if (dead) throw new Error(`${dead.label} exited before ${url} was ready:\n${dead.output()}`);
    try {
      if (await ready(await fetch(url))) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      throw new Error(`${url} not ready within ${timeoutMs} ms:\n${processes.map((process) => `--- ${process.label}\n${process.output()}`).join('\n')}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
