import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './free-port';

const startAllScript = join(__dirname, '..', '..', 'scripts', 'start-all.js');

/** Four apps, initdb and migrations on a loaded 2-core CI machine; each test file has 180 s in all. */
export const STACK_READY_WITHIN_MS = 140_000;

/** The `status` of the gateway's /health ("ok" once the whole path is up). */
export async function gatewayHealth(gatewayUrl: string): Promise<string | undefined> {
  const response = await fetch(`${gatewayUrl}/health`);
  return ((await response.json()) as { status?: string }).status;
}

export interface RunningStack {
  gatewayUrl: string;
  /** The weather server's base URL (its /mcp and /s2sp/data). */
  weatherUrl: string;
  /** The stats server's base URL (its /mcp). */
  statsUrl: string;
  /** host:port of the agents' gRPC server. */
  agentsAddress: string;
  /** The start-all process (the apps and the embedded server are its children). */
  pid: number;
  /** Everything the stack printed so far (stdout and stderr). */
  output(): string;
  /** SIGTERM, as Ctrl+C would; resolves with the exit code once the stack is down. */
  stop(): Promise<number | null>;
}

/**
 * Runs `npm start`'s script (dist/scripts/start-all.js, or `script`) on free ports with
 * `cwd` as its working directory (its `.data` lands there) and resolves once
 * it prints that the stack is ready; rejects with its output if it exits or
 * is not ready within `timeoutMs`.
 */
export async function startStack(options: {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs: number;
  script?: string;
}): Promise<RunningStack> {
  const [weather, stats, gateway, agents] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: '',
    WEATHER_PORT: String(weather),
    STATS_PORT: String(stats),
    GATEWAY_PORT: String(gateway),
    AGENTS_PORT: String(agents),
    AGENTS_METRICS_PORT: '0',
    AGENTS_MCP_SERVERS: `weather=http://127.0.0.1:${weather}/mcp,stats=http://127.0.0.1:${stats}/mcp`,
    GATEWAY_AGENTS_URL: `127.0.0.1:${agents}`,
    ...options.env,
  };
  const child = spawn(process.execPath, [options.script ?? startAllScript], {
    cwd: options.cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => fail(`not ready within ${options.timeoutMs} ms`), options.timeoutMs);
    const poll = setInterval(() => {
      if (output.includes('S2SP stack ready')) done();
    }, 100);
    void exited.then((code) => fail(`exited (${code}) before it was ready`));
    function done() {
      clearTimeout(timer);
      clearInterval(poll);
      resolve();
    }
    function fail(why: string) {
      clearTimeout(timer);
      clearInterval(poll);
      child.kill('SIGTERM');
      reject(new Error(`npm start ${why}:\n${output}`));
    }
  });

  return {
    gatewayUrl: `http://127.0.0.1:${gateway}`,
    weatherUrl: `http://127.0.0.1:${weather}`,
    statsUrl: `http://127.0.0.1:${stats}`,
    agentsAddress: `127.0.0.1:${agents}`,
    pid: child.pid as number,
    output: () => output,
    stop: () => stopChild(child, exited),
  };
}

function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<number | null> {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  return exited;
}
