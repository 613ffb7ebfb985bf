/**
 * Soak: a weather server on its default persistence (embedded PostgreSQL in a
 * data directory) under sustained issuing of resources, to show it stays
 * healthy with bounded memory and disk. Loopback only; stops by itself.
 *
 *   npm run build && node dist/bench/soak/soak.js [--minutes 5] [--rate 8000] [--concurrency 8]
 *
 * `get_alerts` with `abstract_domains` (each call stores one resource with its
 * rows) at --rate resources per minute, resource TTL 20 s, sweep every 3 s,
 * audit records kept 5 minutes (swept every 30 s).
 * Every minute it prints the calls done and failed, the server's RSS (Node
 * process), the PostgreSQL server's PSS (all its processes), the data
 * directory's size on disk and the latency of /s2sp/health.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';
import { readPostmasterPid } from '../../libs/database/src/postmaster-pid';
import { diskUsageMiB } from './disk-usage';
import { rssMiB, treePssMiB } from './process-memory';
import { requestScopedSignalFetch } from '../../libs/agents/src/mcp/request-scoped-signal-fetch';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '5' },
    rate: { type: 'string', default: '8000' },
    concurrency: { type: 'string', default: '8' },
  },
});
const minutes = positive('minutes', Number(values.minutes));
const ratePerMinute = positive('rate', Number(values.rate));
const concurrency = positive('concurrency', Number(values.concurrency));
const TICK_MS = 100;
const AREAS = ['CA', 'TX', 'WA', 'FL', 'NY', 'AK'];

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
}

async function main(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 's2sp-soak-'));
  chmodSync(root, 0o755); // the embedded server runs as another user when this runs as root
  const dataDir = join(root, 'weather');
  const authDir = join(root, 'auth');
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, [join(__dirname, '..', '..', 'apps', 'weather-server', 'src', 'main.js')], {
    env: {
      ...process.env,
      DATABASE_URL: '',
      WEATHER_PORT: String(port),
      WEATHER_DATA_DIR: dataDir,
      S2SP_AUTH_DATA_DIR: authDir,
      S2SP_RESOURCE_TTL_MS: '20000',
      S2SP_SWEEP_INTERVAL_MS: '3000',
      // The audit trail is the one thing that grows with every call: kept 5 minutes here, swept every 30 s.
      S2SP_AUDIT_RETENTION_MS: '300000',
      S2SP_AUDIT_RETENTION_SWEEP_MS: '30000',
      LOG_LEVELS: 'error,warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  try {
    await waitHealthy(baseUrl, 120_000);
    const minter = new TokenMinter({ issuer: 's2sp-dev', signingKey: new DevKeyStore({ dataDir: authDir }) });
    const token = await minter.mint({
      subject: 'soak',
      scopes: ['tools:call', 'weather:read'],
      audience: 'weather-server',
      ttlSeconds: 3600,
    });
    const client = new Client({ name: 'soak', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        fetch: requestScopedSignalFetch(),
      }),
    );

    let inFlight = 0;
    let ok = 0;
    let failed = 0;
    let lastError = '';
    let credit = 0;
    const call = async (n: number) => {
      inFlight += 1;
      try {
        const result = await client.callTool({
          name: 'get_alerts',
          arguments: { area: AREAS[n % AREAS.length], abstract_domains: 'event' },
        });
        if (result.isError) throw new Error(JSON.stringify(result.content).slice(0, 200));
        ok += 1;
      } catch (error) {
        failed += 1;
        lastError = error instanceof Error ? error.message : String(error);
      } finally {
        inFlight -= 1;
      }
    };
    let issued = 0;
    const pacer = setInterval(() => {
      credit = Math.min(credit + (ratePerMinute * TICK_MS) / 60_000, concurrency * 4);
      while (credit >= 1 && inFlight < concurrency) {
        credit -= 1;
        void call(issued++);
      }
    }, TICK_MS);

    console.log(
      `soak: ${minutes} min at ${ratePerMinute} resources/min (concurrency ${concurrency}), TTL 20 s, sweep 3 s, audit kept 5 min, data in ${dataDir}`,
    );
    console.log('minute  ok/min  failed  server_rss_MiB  postgres_pss_MiB  data_dir_MiB  health_ms');
    const started = Date.now();
    let previousOk = 0;
    for (let minute = 1; minute <= minutes; minute += 1) {
      await sleep(started + minute * 60_000 - Date.now());
      const healthStarted = performance.now();
      const health = await fetch(`${baseUrl}/s2sp/health`).then(
        (response) => response.status,
        () => 0,
      );
      const healthMs = performance.now() - healthStarted;
      const postmaster = readPostmasterPid(join(dataDir, 'postgres'));
      console.log(
        [
          String(minute).padStart(6),
          String(ok - previousOk).padStart(7),
          String(failed).padStart(7),
          fixed(rssMiB(server.pid as number)).padStart(15),
          fixed(postmaster ? treePssMiB(postmaster.pid) : undefined).padStart(17),
          fixed(diskUsageMiB(dataDir)).padStart(13),
          `${healthMs.toFixed(1)}${health === 200 ? '' : ` (HTTP ${health})`}`.padStart(10),
        ].join(' '),
      );
      if (failed > 0 && lastError) console.log(`        last failure: ${lastError}`);
      previousOk = ok;
    }
    clearInterval(pacer);
    await client.close();
  } finally {
    await new Promise<void>((resolve) => {
      if (server.exitCode !== null) {
        resolve();
        return;
      }
      server.once('exit', () => resolve());
      server.kill('SIGTERM');
    });
    rmSync(root, { recursive: true, force: true });
  }
}

async function waitHealthy(baseUrl: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (
      await fetch(`${baseUrl}/s2sp/health`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return;
    await sleep(200);
  }
  throw new Error(`the weather server did not become healthy within ${timeoutMs} ms`);
}

function fixed(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
}

main().catch((error: unknown) => {
  console.error('soak failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
