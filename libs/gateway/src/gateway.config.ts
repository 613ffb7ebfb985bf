import { auditRetentionFromEnv, DEFAULT_AUDIT_RETENTION, type AuditRetentionOptions } from '@s2sp/core';
import { packageVersion } from '@s2sp/platform/internal';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { authOptionsFromEnv, type AuthModuleOptions } from '@s2sp/auth';
import {
  DEFAULT_SHUTDOWN_OPTIONS,
  envInt,
  envOptional,
  envString,
  redisOptionsFromEnv,
  shutdownOptionsFromEnv,
  type RedisOptions,
  type ShutdownOptions,
} from '@s2sp/platform';
import { envChoice, envOptionalList, validateRedisOptions } from '@s2sp/platform/internal';
import { resolveHostAllowLists, validateCircuitBreakerOptions } from '@s2sp/platform/internal';
import { logLevelsFromEnv, telemetryOptionsFromEnv, type TelemetryOptions } from '@s2sp/telemetry';
import { DEFAULT_JSON_RPC_OPTIONS } from '@s2sp/json-rpc/internal';
import { defaultConsoleOptions, validateConsoleOptions, type ConsoleOptions } from './console/console-options';
import { AGENTS_LOAD_BALANCING_POLICIES, isAgentsTarget, type AgentsLoadBalancing } from './grpc/agents-target';

/**
 * Everything the gateway needs to start. Build it with {@link gatewayConfigFromEnv} or {@link defaultGatewayConfig}.
 * @public
 */
export interface GatewayConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /**
   * The URL browsers and clients reach the gateway at, when it is not the bound
   * address (behind a proxy, or bound to 0.0.0.0): its host is allowed by default.
   */
  publicUrl?: string;
  /**
   * DNS-rebinding protection of every route but /health and /metrics: the `Host`
   * values the gateway answers to (`host` on any port, `host:port`, or `['*']` for any).
   * Default, as for the MCP servers: `localhost`, `127.0.0.1` and `[::1]` on the bound
   * port when bound to a loopback address, plus the host of `publicUrl`. Anything else: 403.
   */
  allowedHosts?: string[];
  /**
   * Browser origins (`scheme://host[:port]`, or `['*']`) allowed to call the gateway;
   * a request without `Origin` is not affected. Default: the http(s) origins of the allowed hosts.
   */
  allowedOrigins?: string[];
  /** host:port of the agents' gRPC server (ToolService, AgentService, grpc.health.v1.Health). */
  agentsUrl: string;
  /** The agents' audience: calls to them carry the caller's token narrowed for it. */
  agentsAudience: string;
  /** Caller authentication of JSON-RPC calls (audience "gateway" by default) and the key downstream tokens are minted with. */
  auth: AuthModuleOptions;
  /** How long the audit trails are kept (default DEFAULT_AUDIT_RETENTION of @s2sp/core: 30 days; S2SP_AUDIT_RETENTION_*). */
  auditRetention?: AuditRetentionOptions;
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  databaseUrl?: string;
  /** Data directory of the embedded PostgreSQL server (idempotency records); `':memory:'` keeps nothing across restarts. */
  dataDir: string;
  /**
   * Redis shared by the gateway replicas (REDIS_URL): rate limits are counted
   * there, across replicas. Unset: counted in this process (one replica).
   * Idempotency records are in the database either way.
   */
  redis?: RedisOptions;
  jsonRpc: {
    /** Most requests in one batch (the batch limit B_max). */
    maxBatchSize: number;
    /** Most calls of one batch running at once. */
    batchConcurrency: number;
    maxBodyBytes: number;
    /** Deadline of a call that names none, in ms. */
    defaultDeadlineMs: number;
    /** Furthest deadline a caller may ask for, in ms. */
    maxDeadlineMs: number;
    /** Shape of a call's params, checked before any work (src/jsonrpc/params-shape-limits.ts). */
    maxParamsDepth: number;
    maxParamsArrayLength: number;
    maxParamsStringLength: number;
    maxParamsMembers: number;
  };
  grpc: {
    /**
     * Kept back from the remaining JSON-RPC budget when setting the gRPC deadline
     * (the response reserve, t_reserve_response): time to map and send the reply.
     */
    deadlineReserveMs: number;
    /** Below this remaining budget the call is not made at all (the least useful budget, epsilon_min). */
    minimumBudgetMs: number;
    /** Upper bound of the channel's reconnect backoff after the agents went away. */
    maxReconnectBackoffMs: number;
    /**
     * A call whose deadline the gateway's own timer ended (the agents never answered) counts
     * against the circuit breaker only when the call had at least this budget: a shorter one
     * says more about the caller's budget than about the agents, and a caller could otherwise
     * open the circuit for everyone with a run of short deadlines.
     */
    breakerMinimumBudgetMs: number;
    /**
     * How calls are spread over the agents' addresses: `round_robin` (a connection to each
     * address the target resolves to, calls taken in turn) or `pick_first` (one connection).
     */
    loadBalancing: AgentsLoadBalancing;
  };
  rateLimit: {
    /** Calls one caller may make to one method per window. */
    limit: number;
    windowMs: number;
  };
  circuitBreaker: {
    windowMs: number;
    minimumCalls: number;
    /** 0 < rate <= 1. */
    errorRateThreshold: number;
    openDurationMs: number;
  };
  idempotency: {
    /** How long a stored response answers retries. */
    ttlMs: number;
    /** How often expired records are deleted; 0 turns the sweeper off. */
    sweepIntervalMs: number;
    /** How often a duplicate of a running request looks for its outcome. */
    pollIntervalMs: number;
  };
  health: {
    /** Timeout of each downstream probe made by GET /health. */
    timeoutMs: number;
  };
  toolCatalog: {
    /** How long the tools' scopes read from the agents are used before they are read again. */
    ttlMs: number;
    /**
     * A call naming a tool the catalog does not know re-reads it, but not more
     * often than this: unknown names must not make every call a ListTools.
     */
    missRefreshIntervalMs: number;
  };
  /** The web console at /console; defaults: defaultConsoleOptions (gatewayConfigFromEnv: production under NODE_ENV=production, dev tokens then off). */
  console?: ConsoleOptions;
  /**
   * Nest logger setting: `false` silences the app (tests), a list of levels keeps
   * those (JSON lines, as by default), or a LoggerService of your own.
   * Default: JSON lines of every level (JsonLogger of @s2sp/telemetry).
   */
  logger?: LoggerService | LogLevel[] | false;
  /**
   * Graceful shutdown on SIGTERM; each unset option is DEFAULT_SHUTDOWN_OPTIONS'
   * of @s2sp/platform (gatewayConfigFromEnv: S2SP_SHUTDOWN_GRACE_MS, S2SP_SHUTDOWN_NOT_READY_DELAY_MS).
   */
  shutdown?: Partial<ShutdownOptions>;
  /**
   * Telemetry overrides (service name `s2sp-gateway`): tests pass a shared `spanExporter`;
   * gatewayConfigFromEnv passes the OTEL_* variables (telemetryOptionsFromEnv, docs/telemetry.md).
   */
  telemetry?: Partial<TelemetryOptions>;
}

export const GATEWAY_VERSION: string = packageVersion(__dirname);

/**
 * Development defaults (loopback, the dev key, an embedded database); it reads no environment variable.
 * @public
 */
export function defaultGatewayConfig(): GatewayConfig {
  return {
    host: '127.0.0.1',
    port: 3000,
    agentsUrl: '127.0.0.1:50051',
    agentsAudience: 'agents',
    auth: { audience: 'gateway', keys: { kind: 'dev' } },
    auditRetention: { ...DEFAULT_AUDIT_RETENTION },
    dataDir: '.data/gateway',
    jsonRpc: jsonRpcDefaults(),
    grpc: {
      deadlineReserveMs: 20,
      minimumBudgetMs: 20,
      maxReconnectBackoffMs: 2_000,
      breakerMinimumBudgetMs: 2_000,
      loadBalancing: 'round_robin',
    },
    rateLimit: { limit: 120, windowMs: 60_000 },
    circuitBreaker: { windowMs: 10_000, minimumCalls: 5, errorRateThreshold: 0.5, openDurationMs: 5_000 },
    idempotency: { ttlMs: 24 * 60 * 60 * 1000, sweepIntervalMs: 60_000, pollIntervalMs: 50 },
    health: { timeoutMs: 1_000 },
    toolCatalog: { ttlMs: 30_000, missRefreshIntervalMs: 1_000 },
    console: defaultConsoleOptions(),
    shutdown: { ...DEFAULT_SHUTDOWN_OPTIONS },
  };
}

/** The JSON-RPC engine's own defaults (its numeric options; `info` is the gateway's). */
function jsonRpcDefaults(): GatewayConfig['jsonRpc'] {
  const { info: _info, ...numeric } = DEFAULT_JSON_RPC_OPTIONS;
  return { ...numeric };
}

/**
 * The gateway's configuration from the environment; unset variables take the
 * defaults of {@link defaultGatewayConfig}. A malformed value throws, naming the variable.
 * @public
 */
export function gatewayConfigFromEnv(): GatewayConfig {
  const d = defaultGatewayConfig();
  const positive = { min: 1 };
  return validateGatewayConfig({
    host: envString('GATEWAY_HOST', d.host),
    port: envInt('GATEWAY_PORT', d.port, { max: 65535 }),
    agentsUrl: envString('GATEWAY_AGENTS_URL', d.agentsUrl),
    ...hostAllowListsFromEnv(),
    agentsAudience: envString('GATEWAY_AGENTS_AUDIENCE', d.agentsAudience),
    auth: authOptionsFromEnv('gateway', process.env),
    auditRetention: auditRetentionFromEnv(),
    databaseUrl: envOptional('DATABASE_URL'),
    dataDir: envString('GATEWAY_DATA_DIR', d.dataDir),
    ...redisFromEnv(),
    jsonRpc: {
      maxBatchSize: envInt('GATEWAY_MAX_BATCH_SIZE', d.jsonRpc.maxBatchSize, positive),
      batchConcurrency: envInt('GATEWAY_BATCH_CONCURRENCY', d.jsonRpc.batchConcurrency, positive),
      maxBodyBytes: envInt('GATEWAY_MAX_BODY_BYTES', d.jsonRpc.maxBodyBytes, positive),
      defaultDeadlineMs: envInt('GATEWAY_DEFAULT_DEADLINE_MS', d.jsonRpc.defaultDeadlineMs, positive),
      maxDeadlineMs: envInt('GATEWAY_MAX_DEADLINE_MS', d.jsonRpc.maxDeadlineMs, positive),
      maxParamsDepth: envInt('GATEWAY_MAX_PARAMS_DEPTH', d.jsonRpc.maxParamsDepth, positive),
      maxParamsArrayLength: envInt('GATEWAY_MAX_PARAMS_ARRAY_LENGTH', d.jsonRpc.maxParamsArrayLength, positive),
      maxParamsStringLength: envInt('GATEWAY_MAX_PARAMS_STRING_LENGTH', d.jsonRpc.maxParamsStringLength, positive),
      maxParamsMembers: envInt('GATEWAY_MAX_PARAMS_MEMBERS', d.jsonRpc.maxParamsMembers, positive),
    },
    grpc: {
      deadlineReserveMs: envInt('GATEWAY_GRPC_DEADLINE_RESERVE_MS', d.grpc.deadlineReserveMs),
      minimumBudgetMs: envInt('GATEWAY_GRPC_MINIMUM_BUDGET_MS', d.grpc.minimumBudgetMs, positive),
      maxReconnectBackoffMs: envInt('GATEWAY_GRPC_MAX_RECONNECT_BACKOFF_MS', d.grpc.maxReconnectBackoffMs, positive),
      breakerMinimumBudgetMs: envInt('GATEWAY_GRPC_BREAKER_MINIMUM_BUDGET_MS', d.grpc.breakerMinimumBudgetMs),
      loadBalancing: envChoice('GATEWAY_AGENTS_LOAD_BALANCING', AGENTS_LOAD_BALANCING_POLICIES, d.grpc.loadBalancing),
    },
    rateLimit: {
      limit: envInt('GATEWAY_RATE_LIMIT', d.rateLimit.limit, positive),
      windowMs: envInt('GATEWAY_RATE_LIMIT_WINDOW_MS', d.rateLimit.windowMs, positive),
    },
    circuitBreaker: {
      windowMs: envInt('GATEWAY_BREAKER_WINDOW_MS', d.circuitBreaker.windowMs, positive),
      minimumCalls: envInt('GATEWAY_BREAKER_MINIMUM_CALLS', d.circuitBreaker.minimumCalls, positive),
      errorRateThreshold:
        envInt('GATEWAY_BREAKER_ERROR_RATE_PERCENT', d.circuitBreaker.errorRateThreshold * 100, { min: 1, max: 100 }) /
        100,
      openDurationMs: envInt('GATEWAY_BREAKER_OPEN_MS', d.circuitBreaker.openDurationMs, positive),
    },
    idempotency: {
      ttlMs: envInt('GATEWAY_IDEMPOTENCY_TTL_MS', d.idempotency.ttlMs, positive),
      sweepIntervalMs: envInt('GATEWAY_IDEMPOTENCY_SWEEP_MS', d.idempotency.sweepIntervalMs),
      pollIntervalMs: envInt('GATEWAY_IDEMPOTENCY_POLL_MS', d.idempotency.pollIntervalMs, positive),
    },
    health: { timeoutMs: envInt('GATEWAY_HEALTH_TIMEOUT_MS', d.health.timeoutMs, positive) },
    toolCatalog: {
      ttlMs: envInt('GATEWAY_TOOL_CATALOG_TTL_MS', d.toolCatalog.ttlMs, positive),
      missRefreshIntervalMs: envInt('GATEWAY_TOOL_CATALOG_MISS_REFRESH_MS', d.toolCatalog.missRefreshIntervalMs),
    },
    console: consoleFromEnv(),
    shutdown: shutdownOptionsFromEnv(),
    telemetry: telemetryOptionsFromEnv(process.env),
    ...loggerFromEnv(),
  });
}

/** GATEWAY_PUBLIC_URL, and GATEWAY_ALLOWED_HOSTS / GATEWAY_ALLOWED_ORIGINS (comma-separated); unset ones keep the defaults. */
function hostAllowListsFromEnv(): Pick<GatewayConfig, 'publicUrl' | 'allowedHosts' | 'allowedOrigins'> {
  const publicUrl = envOptional('GATEWAY_PUBLIC_URL');
  const hosts = envOptionalList('GATEWAY_ALLOWED_HOSTS');
  const origins = envOptionalList('GATEWAY_ALLOWED_ORIGINS');
  return {
    ...(publicUrl ? { publicUrl } : {}),
    ...(hosts ? { allowedHosts: hosts } : {}),
    ...(origins ? { allowedOrigins: origins } : {}),
  };
}

function redisFromEnv(): Pick<GatewayConfig, 'redis'> {
  const redis = redisOptionsFromEnv();
  return redis ? { redis } : {};
}

/**
 * GATEWAY_CONSOLE=0 turns the console off; NODE_ENV=production sets console.production;
 * GATEWAY_CONSOLE_DEV_TOKENS=1 or 0 (default: on unless in production).
 */
function consoleFromEnv(): ConsoleOptions {
  const d = defaultConsoleOptions({ production: envOptional('NODE_ENV') === 'production' });
  return {
    enabled: switchFromEnv('GATEWAY_CONSOLE', d.enabled),
    assetsDir: envString('GATEWAY_CONSOLE_DIR', d.assetsDir),
    devTokens: switchFromEnv('GATEWAY_CONSOLE_DEV_TOKENS', d.devTokens),
    devTokenTtlSeconds: envInt('GATEWAY_CONSOLE_DEV_TOKEN_TTL_SECONDS', d.devTokenTtlSeconds, { min: 1, max: 86_400 }),
    production: d.production,
  };
}

function switchFromEnv(name: string, fallback: boolean): boolean {
  return envChoice(name, ['1', '0'], fallback ? '1' : '0') === '1';
}

/** LOG_LEVELS (e.g. "error,warn") narrows what the gateway logs, as for the other apps. */
function loggerFromEnv(): Pick<GatewayConfig, 'logger'> {
  const levels = logLevelsFromEnv(process.env);
  return levels ? { logger: levels } : {};
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Rejects a configuration that cannot work, naming the setting, before anything starts. */
export function validateGatewayConfig(config: GatewayConfig): GatewayConfig {
  const fail = (setting: string, why: string): never => {
    throw new RangeError(`Gateway config ${setting} ${why}`);
  };
  const integer = (setting: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void => {
    if (!Number.isSafeInteger(value) || value < min || value > max)
      fail(setting, `must be an integer from ${min} to ${max}, got ${value}`);
  };
  if (!config.host.trim()) fail('host', 'must not be empty');
  if (config.publicUrl !== undefined && !isHttpUrl(config.publicUrl))
    fail('publicUrl', `must be an http(s) URL, got ${JSON.stringify(config.publicUrl)}`);
  resolveHostAllowLists('Gateway config', config);
  integer('port', config.port, 0, 65535);
  if (!isAgentsTarget(config.agentsUrl)) {
    fail(
      'agentsUrl',
      `must be host:port, dns:///host:port or ipv4:/ipv6: addresses (a,b,…), got ${JSON.stringify(config.agentsUrl)}`,
    );
  }
  for (const [name, value] of Object.entries(config.jsonRpc)) integer(`jsonRpc.${name}`, value, 1);
  if (config.jsonRpc.defaultDeadlineMs > config.jsonRpc.maxDeadlineMs)
    fail('jsonRpc.defaultDeadlineMs', 'must not exceed jsonRpc.maxDeadlineMs');
  integer('grpc.deadlineReserveMs', config.grpc.deadlineReserveMs, 0);
  integer('grpc.minimumBudgetMs', config.grpc.minimumBudgetMs, 1);
  integer('grpc.maxReconnectBackoffMs', config.grpc.maxReconnectBackoffMs, 1);
  if (!AGENTS_LOAD_BALANCING_POLICIES.includes(config.grpc.loadBalancing)) {
    fail(
      'grpc.loadBalancing',
      `must be one of ${AGENTS_LOAD_BALANCING_POLICIES.join(', ')}, got ${JSON.stringify(config.grpc.loadBalancing)}`,
    );
  }
  if (config.redis) validateRedisOptions(config.redis, 'Gateway config redis');
  integer('rateLimit.limit', config.rateLimit.limit, 1);
  integer('rateLimit.windowMs', config.rateLimit.windowMs, 1);
  validateCircuitBreakerOptions(config.circuitBreaker, 'circuitBreaker');
  integer('idempotency.ttlMs', config.idempotency.ttlMs, 1);
  integer('idempotency.sweepIntervalMs', config.idempotency.sweepIntervalMs, 0);
  integer('idempotency.pollIntervalMs', config.idempotency.pollIntervalMs, 1);
  integer('health.timeoutMs', config.health.timeoutMs, 1);
  integer('toolCatalog.ttlMs', config.toolCatalog.ttlMs, 1);
  integer('toolCatalog.missRefreshIntervalMs', config.toolCatalog.missRefreshIntervalMs, 0);
  if (config.console) validateConsoleOptions(config.console);
  return config;
}
