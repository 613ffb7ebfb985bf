import type { AsyncModuleOptions } from '@s2sp/platform';
import type { FactoryProvider, Provider, Type } from '@nestjs/common';
import {
  DATA_PLANE_AUTH_POLICIES,
  DEFAULT_DATA_PLANE_AUTH,
  isDataPlaneAuthPolicy,
  type DataPlaneAuthPolicy,
} from '../auth/data-plane-auth-policy';
import { type AllowedHost, type AllowList } from '@s2sp/platform';
import { resolveHostAllowLists } from '@s2sp/platform/internal';
import type { ResourceStore } from '../store/resource-store.interface';
import {
  DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY,
  type DataPlaneFetchAuditRetry,
} from '../audit/prisma-data-plane-fetch-audit';
import {
  DEFAULT_RESOURCE_CACHE_BYTES,
  DEFAULT_RESOURCE_TABLE_WAIT_MS,
  DEFAULT_RESOURCE_WRITE_DELAY_MS,
  DEFAULT_RESOURCE_RESERVATIONS,
  type ResourceClaimCommit,
  type ResourceWriteMode,
} from '../store/prisma-resource-store';

/** @public */
export interface S2spLimits {
  /** Largest data-plane request body, in bytes. */
  maxRequestBytes: number;
  /** Most row ids one data-plane fetch may name. */
  maxRowIdsPerFetch: number;
  /** Most columns one data-plane fetch or one abstract_domains may name. */
  maxColumnsPerRequest: number;
  maxColumnNameLength: number;
  /** Most rows a resource tool may cache, or a consumer tool may take as abstract_data/body_data. */
  maxRows: number;
  /** Largest data-plane response a consumer accepts, in bytes. */
  maxResponseBytes: number;
}

/** @public */
export interface S2spDatabaseOptions {
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  url?: string;
  /** Data directory of the embedded PostgreSQL server (`':memory:'`: in-memory PGlite, nothing kept). */
  dataDir?: string;
  /**
   * Prepare each statement once per database connection (default true): PostgreSQL then skips
   * parsing and planning it again. Turn off behind a connection pooler that does not keep
   * prepared statements per client (PgBouncer before 1.21, or without `max_prepared_statements`).
   */
  preparedStatements?: boolean;
}

/** @public */
export interface S2spModuleOptions {
  /**
   * The externally reachable base URL of this server's data plane, e.g.
   * `https://weather.example.com` behind a proxy. resource_urls are built on it.
   * A function is read at each call, for servers that learn their port late.
   */
  publicBaseUrl?: string | (() => string);
  /** Lifetime of a resource_url, in milliseconds. Default 10 minutes. */
  resourceTtlMs?: number;
  /** How often expired resources are swept, in milliseconds. Default 60 s; 0 disables. */
  sweepIntervalMs?: number;
  /** Origins (`scheme://host:port`) a consumer tool may fetch resource_urls from. */
  allowedResourceOrigins?: string[];
  /** Timeout of one data-plane fetch by a consumer, in milliseconds. Default 10 s. */
  fetchTimeoutMs?: number;
  /**
   * A consumer asks for Arrow (which a server without it answers as JSON) only for
   * answers of at least this many rows; smaller ones it asks as JSON, which Arrow's
   * fixed cost of a few milliseconds makes faster. Default 500; 0: always Arrow.
   */
  arrowMinRows?: number;
  /**
   * With AuthModule: the audience (service name) of each allowed resource
   * server, by origin. A consumer's fetch carries the caller's token narrowed
   * for that audience, e.g. `{ 'http://127.0.0.1:3101': 'weather-server' }`.
   */
  resourceAudiences?: Record<string, string>;
  /**
   * Who may fetch this server's resource_urls when caller authentication is on
   * (serveMcp `auth`): `'bearer'` (default) asks for the caller's token and binds
   * each resource to its caller and consumer; `'capability'` serves whoever holds
   * the URL, once. See DataPlaneAuthPolicy.
   */
  dataPlaneAuth?: DataPlaneAuthPolicy;
  /**
   * DNS-rebinding protection of `/mcp` and the data plane: the `Host` values
   * this server answers to (`host` on any port, `host:port`, or `'*'` for any).
   * Default: `localhost`, `127.0.0.1` and `[::1]` on the bound port when bound
   * to a loopback address, plus the host of `publicBaseUrl` when it is set.
   * Anything else is answered 403.
   */
  allowedHosts?: string[];
  /**
   * Browser origins (`scheme://host[:port]`, or `'*'`) allowed to call `/mcp`
   * and the data plane. A request without `Origin` is not affected. Default:
   * the http(s) origins of the allowed hosts (none when every host is allowed).
   */
  allowedOrigins?: string[];
  limits?: Partial<S2spLimits>;
  /**
   * How many data-plane fetch records the default store's audit buffers, and how long it waits
   * between retries, while the database fails (default DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY;
   * dataPlaneFetchAuditRetryFromEnv() reads the S2SP_DATA_FETCH_AUDIT_* variables).
   */
  dataPlaneFetchAudit?: Partial<DataPlaneFetchAuditRetry>;
  database?: S2spDatabaseOptions;
  /**
   * The built-in store's in-memory copy of the tables this process issued, in
   * bytes (encoded length); the usual fetch is served from it without reading
   * the database. A table of at most 64 rows is held as its encoded text once written (about its
   * weight in the heap); a larger one as row objects, several times that. Default 64 MiB; 0 turns it off.
   */
  resourceCacheBytes?: number;
  /**
   * When the built-in store answers a resource tool: `after-answer` (default)
   * once the resource row is in the database, the table being written right
   * after (a crash of this process in that window loses the table: its
   * resource_url then fails), a table of at most 64 rows with the row itself;
   * `before-answer` once the table is in the database too.
   */
  resourceWriteMode?: ResourceWriteMode;
  /**
   * How long a fetch on another replica waits for a table still being written
   * (`after-answer`) before answering 503 RESOURCE_NOT_READY without consuming it. Default 15 s.
   */
  resourceTableWaitMs?: number;
  /**
   * `after-answer`: how long after the answer the table's write starts (at most that long for a
   * table of one block on a reserved row: all such writes of one window share a statement). A fetch
   * in the issuing process within it is served from memory and no write is made at all; another
   * replica, and a crash, wait up to that much longer for the stored table. Default 25 ms; 0: on
   * the next turn of the event loop.
   */
  resourceWriteDelayMs?: number;
  /**
   * `after-answer` on PostgreSQL: how many resource rows the built-in store commits ahead of their
   * use, in one statement, so that issuing a resource waits for no database round trip (its
   * metadata is then written with its table, after the answer). Default 128; 0: each resource's
   * row is inserted before its answer.
   */
  resourceReservations?: number;
  /**
   * When the built-in store's claim of a resource (its single use) returns:
   * `fast` (default) once committed, before PostgreSQL's log reaches the disk
   * (a crash of PostgreSQL itself right after can let the resource_url answer
   * one more fetch); `durable` once on disk too, 0.5–0.7 ms more per fetch.
   */
  resourceClaimCommit?: ResourceClaimCommit;
  /**
   * Load while the app starts, before it listens, what the first call of a kind would otherwise
   * load: the token counter (about 0.1 s and 4 MiB), in an app with resource tools. Default true; false
   * for processes started many times whose first call's latency does not matter (tests).
   */
  warmUp?: boolean;
  /** Replace the Prisma store with your own (class, factory or value). */
  resourceStore?: ResourceStoreProvider;
}

/** @public */
export type ResourceStoreProvider =
  { useClass: Type<ResourceStore> } | { useValue: ResourceStore } | Omit<FactoryProvider<ResourceStore>, 'provide'>;

/**
 * Options made at run time (`useFactory`, `useClass` or `useExisting`). Store providers cannot come
 * from them: Nest must know them when it builds the module, so they sit beside.
 * @public
 */
export type S2spModuleAsyncOptions = AsyncModuleOptions<S2spModuleOptions> & {
  resourceStore?: ResourceStoreProvider;
  extraProviders?: Provider[];
};

/** @public */
export interface ResolvedS2spOptions {
  publicBaseUrl: () => string;
  resourceTtlMs: number;
  sweepIntervalMs: number;
  allowedResourceOrigins: string[];
  fetchTimeoutMs: number;
  arrowMinRows: number;
  /** By normalized origin. */
  resourceAudiences: Record<string, string>;
  dataPlaneAuth: DataPlaneAuthPolicy;
  /** Undefined: the defaults, which depend on the bound address (see defaultAllowedHosts). */
  allowedHosts?: AllowList<AllowedHost>;
  /** Undefined: the origins of the allowed hosts. */
  allowedOrigins?: AllowList<string>;
  limits: S2spLimits;
  dataPlaneFetchAudit: DataPlaneFetchAuditRetry;
  database: S2spDatabaseOptions;
  resourceCacheBytes: number;
  resourceWriteMode: ResourceWriteMode;
  resourceTableWaitMs: number;
  resourceWriteDelayMs: number;
  resourceReservations: number;
  resourceClaimCommit: ResourceClaimCommit;
  warmUp: boolean;
}

/**
 * Below about this many rows a JSON answer arrives sooner than an Arrow one (`bench/data-plane/README.md`).
 * @beta
 */
export const DEFAULT_ARROW_MIN_ROWS = 500;

export const DEFAULT_LIMITS: S2spLimits = {
  // Room for maxRowIdsPerFetch ids of a maxRows-row resource (see requestBytesNeeded).
  maxRequestBytes: 1024 * 1024,
  maxRowIdsPerFetch: 100_000,
  maxColumnsPerRequest: 256,
  maxColumnNameLength: 256,
  maxRows: 100_000,
  maxResponseBytes: 64 * 1024 * 1024,
};

export function resolveS2spOptions(options: S2spModuleOptions): ResolvedS2spOptions {
  const base = options.publicBaseUrl;
  return {
    publicBaseUrl: () => {
      const value = typeof base === 'function' ? base() : base;
      if (!value) throw new Error('S2spModule: publicBaseUrl is not configured, so no resource_url can be issued.');
      return value;
    },
    resourceTtlMs: positive('resourceTtlMs', options.resourceTtlMs ?? 10 * 60 * 1000),
    sweepIntervalMs: timerMs('sweepIntervalMs', options.sweepIntervalMs ?? 60 * 1000, { allowZero: true }),
    allowedResourceOrigins: (options.allowedResourceOrigins ?? []).map(normalizeOrigin),
    fetchTimeoutMs: timerMs('fetchTimeoutMs', options.fetchTimeoutMs ?? 10_000),
    arrowMinRows: nonNegativeInteger('arrowMinRows', options.arrowMinRows ?? DEFAULT_ARROW_MIN_ROWS),
    resourceAudiences: resolveAudiences(options.resourceAudiences ?? {}),
    dataPlaneAuth: resolveDataPlaneAuth(options.dataPlaneAuth),
    ...resolveHostAllowLists('S2spModule', options),
    limits: resolveLimits(options.limits ?? {}),
    dataPlaneFetchAudit: resolveFetchAuditRetry(options.dataPlaneFetchAudit ?? {}),
    database: databaseOptions(options.database ?? {}),
    resourceCacheBytes: nonNegativeInteger(
      'resourceCacheBytes',
      options.resourceCacheBytes ?? DEFAULT_RESOURCE_CACHE_BYTES,
    ),
    resourceWriteMode: oneOf('resourceWriteMode', options.resourceWriteMode ?? 'after-answer', [
      'before-answer',
      'after-answer',
    ] as const),
    resourceTableWaitMs: timerMs('resourceTableWaitMs', options.resourceTableWaitMs ?? DEFAULT_RESOURCE_TABLE_WAIT_MS, {
      allowZero: true,
    }),
    resourceWriteDelayMs: timerMs(
      'resourceWriteDelayMs',
      options.resourceWriteDelayMs ?? DEFAULT_RESOURCE_WRITE_DELAY_MS,
      { allowZero: true },
    ),
    resourceReservations: nonNegativeInteger(
      'resourceReservations',
      options.resourceReservations ?? DEFAULT_RESOURCE_RESERVATIONS,
    ),
    resourceClaimCommit: oneOf('resourceClaimCommit', options.resourceClaimCommit ?? 'fast', [
      'fast',
      'durable',
    ] as const),
    warmUp: boolean('warmUp', options.warmUp ?? true),
  };
}

/** A list of entries, or `['*']` for any value; an empty list is refused (it would lock every caller out). */
function resolveFetchAuditRetry(given: Partial<DataPlaneFetchAuditRetry>): DataPlaneFetchAuditRetry {
  const retry = { ...DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY, ...given };
  for (const [name, value] of Object.entries(retry)) {
    if (!Number.isSafeInteger(value) || value < 1)
      throw new Error(`S2spModule: dataPlaneFetchAudit.${name} must be a positive integer.`);
  }
  return retry;
}

function nonNegativeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 0)
    throw new Error(`S2spModule: ${name} must be a whole number, 0 or more.`);
  return value;
}

function boolean(name: string, value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new Error(`S2spModule: ${name} must be true or false, got ${JSON.stringify(value)}.`);
  return value;
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new Error(
      `S2spModule: ${name} must be ${allowed.map((item) => JSON.stringify(item)).join(' or ')}, got ${JSON.stringify(value)}.`,
    );
  }
  return value as T;
}

/**
 * The largest fetch body a consumer sends: `{"row_ids":[…],"columns":[…]}`
 * naming maxRowIdsPerFetch ids (each below maxRows) and maxColumnsPerRequest
 * columns of maxColumnNameLength characters (up to 6 bytes each once JSON-escaped).
 */
export function requestBytesNeeded(limits: S2spLimits): number {
  const idBytes = String(Math.max(0, limits.maxRows - 1)).length + 1;
  const columnBytes = limits.maxColumnNameLength * 6 + 3;
  return 32 + limits.maxRowIdsPerFetch * idBytes + limits.maxColumnsPerRequest * columnBytes;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`S2spModule: ${name} must be a positive number of milliseconds.`);
  return value;
}

/** Node timers take whole milliseconds up to 2^31-1; beyond that they fire at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

function databaseOptions(database: S2spDatabaseOptions): S2spDatabaseOptions {
  if (database.preparedStatements === undefined) return database;
  return { ...database, preparedStatements: boolean('database.preparedStatements', database.preparedStatements) };
}

function timerMs(name: string, value: number, { allowZero = false } = {}): number {
  const ok = Number.isSafeInteger(value) && value <= MAX_TIMER_MS && (value > 0 || (allowZero && value === 0));
  if (!ok) {
    throw new Error(
      `S2spModule: ${name} must be a whole number of milliseconds from ${allowZero ? 0 : 1} to ${MAX_TIMER_MS}.`,
    );
  }
  return value;
}

/** Every limit is a positive integer; an explicitly undefined one keeps its default rather than switching the check off. */
function resolveLimits(overrides: Partial<S2spLimits>): S2spLimits {
  const limits = { ...DEFAULT_LIMITS };
  for (const name of Object.keys(DEFAULT_LIMITS) as Array<keyof S2spLimits>) {
    const value = overrides[name];
    if (value === undefined) continue;
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new Error(`S2spModule: limits.${name} must be a positive integer.`);
    limits[name] = value;
  }
  const needed = requestBytesNeeded(limits);
  if (limits.maxRequestBytes < needed) {
    throw new Error(
      `S2spModule: limits.maxRequestBytes (${limits.maxRequestBytes}) cannot hold a fetch of limits.maxRowIdsPerFetch (${limits.maxRowIdsPerFetch}) row ids ` +
        `and limits.maxColumnsPerRequest (${limits.maxColumnsPerRequest}) columns: raise it to at least ${needed}, or lower those.`,
    );
  }
  return limits;
}

function resolveAudiences(audiences: Record<string, string>): Record<string, string> {
  const resolved: Record<string, string> = {};
  for (const [origin, audience] of Object.entries(audiences)) {
    if (typeof audience !== 'string' || audience.trim() === '') {
      throw new Error(`S2spModule: resourceAudiences["${origin}"] must be a non-empty service name.`);
    }
    resolved[normalizeOrigin(origin)] = audience.trim();
  }
  return resolved;
}

function resolveDataPlaneAuth(policy: unknown): DataPlaneAuthPolicy {
  if (policy === undefined) return DEFAULT_DATA_PLANE_AUTH;
  if (!isDataPlaneAuthPolicy(policy)) {
    throw new Error(
      `S2spModule: dataPlaneAuth must be ${DATA_PLANE_AUTH_POLICIES.map((p) => `"${p}"`).join(' or ')}; got ${JSON.stringify(policy)}.`,
    );
  }
  return policy;
}

/** `http://Host:80/` → `http://host`; throws on anything that is not an http(s) origin. */
export function normalizeOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new Error(`S2spModule: allowedResourceOrigins entry "${origin}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`S2spModule: allowedResourceOrigins entry "${origin}" is not http(s).`);
  }
  return url.origin;
}
