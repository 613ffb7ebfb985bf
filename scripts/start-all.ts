import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
// Only the modules needed (not the barrel, which loads Nest, Prisma and MCP): this process stays small.
import { envInt, envString } from '@s2sp/platform';
import { isPostgresUrl } from '../libs/database/src/postgres-url';
import { severityOfPostgresLogLine } from '../libs/database/src/postgres-log-severity';
import { startEmbeddedPostgres, type EmbeddedPostgresServer } from '../libs/database/src/embedded-postgres-server';
import { describeEmbeddedPostgresEvent } from '../libs/database/src/embedded-postgres-supervisor';
import { ALLOCATOR_SETTINGS } from './allocator-settings';

/** The processes `npm start` runs, each with the URL that answers once it is ready. */
interface Service {
  name: string;
  entry: string;
  /** Polled until it answers (and `readyWhen` agrees); a service without one is ready when the others are. */
  readyUrl?: string;
  readyWhen?: (response: Response) => Promise<boolean>;
}

const distRoot = join(__dirname, '..');
const weatherPort = envInt('WEATHER_PORT', 3101, { max: 65535 });
const statsPort = envInt('STATS_PORT', 3102, { max: 65535 });
const gatewayPort = envInt('GATEWAY_PORT', 3000, { max: 65535 });

// The agents reach the MCP servers and the gateway reaches the agents, but
// both start without them and connect when they appear; the gateway's /health
// answering "ok" means the whole path is up.
const services: Service[] = [
  {
    name: 'weather-server',
    entry: 'apps/weather-server/src/main.js',
    readyUrl: `http://127.0.0.1:${weatherPort}/s2sp/health`,
  },
  {
    name: 'stats-server',
    entry: 'apps/stats-server/src/main.js',
    readyUrl: `http://127.0.0.1:${statsPort}/s2sp/health`,
  },
  { name: 'agents', entry: 'apps/agents/src/main.js' },
  {
    name: 'gateway',
    entry: 'apps/gateway/src/main.js',
    readyUrl: `http://127.0.0.1:${gatewayPort}/health`,
    readyWhen: isHealthOk,
  },
];

async function isHealthOk(response: Response): Promise<boolean> {
  if (!response.ok) return false;
  const health = (await response.json()) as { status?: string; mcpServers?: Array<{ connected?: boolean }> };
  return health.status === 'ok';
}

const children: ChildProcess[] = [];
let database: EmbeddedPostgresServer | undefined;
let stopping = false;

/**
 * Without DATABASE_URL the whole stack shares ONE embedded PostgreSQL server
 * (cluster in `<S2SP_EMBEDDED_DATA_DIR>/postgres`, default `.data/postgres`):
 * every app gets its URL, exactly as in the PostgreSQL mode, instead of a
 * server each. Returns the environment of the apps.
 */
async function databaseEnvironment(): Promise<NodeJS.ProcessEnv> {
  if (isPostgresUrl(process.env.DATABASE_URL)) return process.env;
  const dataDir = envString('S2SP_EMBEDDED_DATA_DIR', '.data');
  database = await startEmbeddedPostgres({
    dataDir,
    onLog: (line) => {
      if (severityOfPostgresLogLine(line)) process.stdout.write(`[postgres] ${line}\n`);
    },
    // An unexpected exit is repaired on the same port (the apps' pools reconnect); when the
    // restarts give up, the stack stops with exit code 1 for its process manager.
    onEvent: (event) => process.stdout.write(`[postgres] ${describeEmbeddedPostgresEvent(event)}\n`),
    onGiveUp: () => void stop(1),
  });
  console.log(`[postgres] embedded PostgreSQL in ${database.clusterDir} on 127.0.0.1:${database.port}`);
  return { ...process.env, DATABASE_URL: database.url };
}

function start(service: Service, env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(process.execPath, [join(distRoot, service.entry)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...ALLOCATOR_SETTINGS, ...env },
  });
  const prefix = (line: string) => `[${service.name}] ${line}`;
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream?.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(prefix(line) + '\n');
    });
  }
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(prefix(`exited (${signal ?? code}); stopping the stack.`));
    void stop(1);
  });
  return child;
}

async function waitReady(service: Service, timeoutMs = 90_000): Promise<void> {
  if (!service.readyUrl) return;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(service.readyUrl);
      if (await (service.readyWhen ?? (async (answer: Response) => answer.ok))(response)) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${service.name} did not answer ${service.readyUrl} within ${timeoutMs} ms`);
}

async function stop(exitCode: number): Promise<never> {
  stopping = true;
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          child.once('exit', () => resolve());
          child.kill('SIGTERM');
          setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
        }),
    ),
  );
  // Last: the apps write their final records on shutdown.
  await database
    ?.stop()
    .catch((error: unknown) => console.error(`[postgres] ${error instanceof Error ? error.message : String(error)}`));
  process.exit(exitCode);
}

async function main(): Promise<void> {
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));
  const env = await databaseEnvironment();
  for (const service of services) children.push(start(service, env));
  await Promise.all(services.map((service) => waitReady(service)));
  console.log('S2SP stack ready:');
  console.log(
    `  gateway         JSON-RPC http://127.0.0.1:${gatewayPort}/rpc  health http://127.0.0.1:${gatewayPort}/health`,
  );
  console.log(`  agents          gRPC ${process.env.AGENTS_HOST ?? '127.0.0.1'}:${process.env.AGENTS_PORT ?? '50051'}`);
  console.log(
    `  weather-server  MCP http://127.0.0.1:${weatherPort}/mcp  data plane http://127.0.0.1:${weatherPort}/s2sp/data`,
  );
  console.log(`  stats-server    MCP http://127.0.0.1:${statsPort}/mcp`);
  console.log('Press Ctrl+C to stop.');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  void stop(1);
});
