import { auditRetentionFromEnv, type AuditRetentionOptions } from '@s2sp/core';
import { authOptionsFromEnv, type AuthModuleOptions } from '@s2sp/auth';
import {
  envInt,
  envOptional,
  envString,
  redisOptionsFromEnv,
  shutdownOptionsFromEnv,
  type RedisOptions,
  type ShutdownOptions,
} from '@s2sp/platform';
import { envChoice, validateRedisOptions } from '@s2sp/platform/internal';
import { validateCircuitBreakerOptions } from '@s2sp/platform/internal';
import { telemetryOptionsFromEnv, type TelemetryOptions } from '@s2sp/telemetry';
import {
  parseMcpServerList,
  validateMcpServers,
  withMcpAudiences,
  type McpServerEndpoint,
} from './config/mcp-server-list';
import { modelEndpointFromEnv, validateModelEndpoint, type ModelEndpointConfig } from './models/model-endpoint-config';
import { DEFAULT_MCP_PROTOCOL, MCP_PROTOCOL_MODES, type McpProtocolMode } from './mcp/mcp-protocol-mode';
import { DEFAULT_PLANNER_MAX_TOKENS, DEFAULT_PLANNER_MAX_TURNS } from './planning/planner-limits';
import { mcpRootsFromEnv, validateMcpRoots, type McpRootEntry } from './sampling/mcp-roots';
import {
  DEFAULT_SAMPLING_CONFIG,
  samplingConfigFromEnv,
  validateSamplingConfig,
  type SamplingConfig,
} from './sampling/sampling-config';

export type { McpServerEndpoint } from './config/mcp-server-list';
export type { McpProtocolMode } from './mcp/mcp-protocol-mode';
export type { McpRootEntry } from './sampling/mcp-roots';
export type { SamplingConfig } from './sampling/sampling-config';

/**
 * Circuit breaker per MCP server (see CircuitBreaker in @s2sp/platform).
 * @public
 */
export interface AgentsBreakerConfig {
  /** Sliding window over which the error rate is measured. */
  windowMs: number;
  /** Fewest calls in the window before the rate can open the circuit. */
  minimumCalls: number;
  /** Error rate (0..1) at or above which the circuit opens. */
  errorRateThreshold: number;
  /** How long the circuit stays open before one probe call is let through. */
  openDurationMs: number;
  /**
   * A request that runs out of time counts against its server only when its budget (the caller's
   * deadline, or `mcp.callTimeoutMs`) was at least this long: a caller's short deadline says
   * nothing about the server. Default 2000.
   */
  minimumBudgetMs?: number;
}

/** @public */
export interface AgentsMcpConfig {
  /** Timeout of one MCP request when the caller gave no deadline. */
  callTimeoutMs: number;
  /** Timeout of the MCP initialize handshake. */
  connectTimeoutMs: number;
  /** First delay before reconnecting a server that could not be reached in the background; 0 = only reconnect lazily, on next use. */
  reconnectInitialDelayMs: number;
  /** Longest delay between background reconnection attempts (exponential backoff). */
  reconnectMaxDelayMs: number;
  /**
   * The protocol negotiation with each MCP server: `'auto'` (default) asks the
   * server with `server/discover` and speaks MCP 2026-07-28 when the server
   * does, else 2025-11-25 over `initialize`; `'legacy'` always initializes.
   */
  protocol?: McpProtocolMode;
}

/**
 * Deadline propagation: how much of the caller's remaining time a hop needs, and keeps back for its answer.
 * @public
 */
export interface AgentsDeadlineConfig {
  /** Below this remaining budget a call is refused with DEADLINE_EXCEEDED (hop "agents"). */
  minRemainingMs: number;
  /** Time kept back at each hop to send the answer back before the caller's deadline. */
  responseReserveMs: number;
}

/** @public */
export interface TaskListConfig {
  /** Tasks on a page when the request leaves page_size 0. */
  defaultPageSize: number;
  /** The most tasks on a page; a larger page_size is cut to it. */
  maxPageSize: number;
}

export const DEFAULT_TASK_LIST_CONFIG: TaskListConfig = Object.freeze({ defaultPageSize: 20, maxPageSize: 100 });

/** The longest delay a Node.js timer keeps (a longer one fires at once). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** @public */
export interface AgentsConfig {
  host: string;
  /** 0 picks a free port; startAgents reports the bound one. */
  port: number;
  /**
   * A client connection is asked to move on (HTTP/2 GOAWAY; its calls and streams
   * finish) after this long, so that clients resolve the agents' addresses again and
   * spread over replicas started since. 0 = never. Default 5 minutes.
   */
  maxConnectionAgeMs?: number;
  mcpServers: McpServerEndpoint[];
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  databaseUrl?: string;
  /** Data directory of the embedded PostgreSQL server; ':memory:' keeps nothing. */
  dataDir: string;
  breaker: AgentsBreakerConfig;
  mcp: AgentsMcpConfig;
  deadlines: AgentsDeadlineConfig;
  /** Tasks running at once; more are refused with RESOURCE_EXHAUSTED. */
  maxRunningTasks: number;
  /**
   * Redis shared by the agents replicas (REDIS_URL): live steps and cancels of
   * a task reach it from any replica (docs/scale-out.md). Unset: one replica,
   * nothing shared but the database.
   */
  redis?: RedisOptions;
  /**
   * How long a CancelTask for a task another replica runs waits for that
   * replica's answer (longer than the 5 s a hard cancel waits for the task to stop).
   */
  remoteCancelTimeoutMs: number;
  /**
   * With redis: how long a replica's hold on a task it runs lasts unless
   * renewed (every third of it). A replica that stopped leaves its tasks
   * without one; another replica, checking this often, marks them FAILED when
   * two checks in a row found them so.
   */
  taskLeaseMs: number;
  /** Page sizes of ListTasks (AGENTS_TASK_LIST_PAGE_SIZE, AGENTS_TASK_LIST_MAX_PAGE_SIZE); unset: {@link DEFAULT_TASK_LIST_CONFIG}. */
  taskList?: TaskListConfig;
  /** Caller authentication on gRPC (audience "agents" by default) and the key narrowed MCP tokens are minted with. */
  auth: AuthModuleOptions;
  /** How long the audit trails are kept (default DEFAULT_AUDIT_RETENTION of @s2sp/core: 30 days; S2SP_AUDIT_RETENTION_*). */
  auditRetention?: AuditRetentionOptions;
  /**
   * Port of the agents' own Prometheus endpoint (`GET /metrics`; the agents serve
   * no other HTTP). 0 = any free port (tests; read RunningAgents.metricsUrl);
   * unset = no endpoint. AGENTS_METRICS_PORT, default {@link DEFAULT_AGENTS_METRICS_PORT}.
   */
  metricsPort?: number;
  /** Host of that endpoint (AGENTS_METRICS_HOST, default 127.0.0.1). */
  metricsHost?: string;
  /**
   * Graceful shutdown on SIGTERM (running tasks get until graceMs to finish); each unset
   * option is DEFAULT_SHUTDOWN_OPTIONS' of @s2sp/platform (agentsConfigFromEnv:
   * S2SP_SHUTDOWN_GRACE_MS, S2SP_SHUTDOWN_NOT_READY_DELAY_MS).
   */
  shutdown?: Partial<ShutdownOptions>;
  /**
   * What the default sampling policy lets MCP servers ask of the agents' model
   * (docs/sampling.md); unset: DEFAULT_SAMPLING_CONFIG, which allows no server.
   */
  sampling?: SamplingConfig;
  /**
   * Load while starting, before listening, what the first call would otherwise load (the token counter every task's usage needs).
   * Default true; false for processes started many times whose first call's latency does not matter (tests).
   */
  warmUp?: boolean;
  /**
   * Who decides a task's steps: `declarative` (default) runs the plan the client gives; `model`
   * asks the language model of `model` (or of the MODEL_PROVIDER given to AgentsModule) for each
   * step, so a task may come with only an objective (AGENTS_PLANNER).
   */
  planner?: 'declarative' | 'model';
  /** The language model the agents call, for the model planner and for sampling (AGENTS_MODEL_*); unset: none. */
  model?: ModelEndpointConfig;
  /** `maxTokens` of each request of the model planner (AGENTS_PLANNER_MAX_TOKENS, default 1024). */
  plannerMaxTokens?: number;
  /** Model calls the model planner makes for one task before it fails it (AGENTS_PLANNER_MAX_TURNS, default 32). */
  plannerMaxTurns?: number;
  /** Roots declared to the MCP servers in `roots/list` (AGENTS_MCP_ROOTS); unset: none. */
  roots?: McpRootEntry[];
  /**
   * Telemetry overrides (service name `s2sp-agents`), e.g. a test's shared `spanExporter`;
   * agentsConfigFromEnv passes the OTEL_* variables (telemetryOptionsFromEnv of @s2sp/telemetry).
   */
  telemetry?: Partial<TelemetryOptions>;
}

/** `breaker.minimumBudgetMs` when unset. */
export const DEFAULT_BREAKER_MINIMUM_BUDGET_MS = 2_000;

/** Default port of the agents' Prometheus endpoint (the usual OpenTelemetry Prometheus exporter port). */
export const DEFAULT_AGENTS_METRICS_PORT = 9464;

export const DEFAULT_MCP_SERVERS = 'weather=http://127.0.0.1:3101/mcp,stats=http://127.0.0.1:3102/mcp';

export const DEFAULT_AGENTS_CONFIG: Omit<AgentsConfig, 'mcpServers' | 'auth'> = {
  host: '127.0.0.1',
  port: 50051,
  maxConnectionAgeMs: 300_000,
  dataDir: '.data/agents',
  breaker: {
    windowMs: 10_000,
    minimumCalls: 5,
    errorRateThreshold: 0.5,
    openDurationMs: 5_000,
    minimumBudgetMs: DEFAULT_BREAKER_MINIMUM_BUDGET_MS,
  },
  mcp: {
    callTimeoutMs: 60_000,
    connectTimeoutMs: 5_000,
    reconnectInitialDelayMs: 1_000,
    reconnectMaxDelayMs: 30_000,
    protocol: DEFAULT_MCP_PROTOCOL,
  },
  deadlines: { minRemainingMs: 50, responseReserveMs: 20 },
  maxRunningTasks: 64,
  remoteCancelTimeoutMs: 10_000,
  taskLeaseMs: 15_000,
  taskList: DEFAULT_TASK_LIST_CONFIG,
  sampling: DEFAULT_SAMPLING_CONFIG,
  roots: [],
};

/**
 * Configuration from the environment:
 * AGENTS_HOST, AGENTS_PORT (0 = any free port), AGENTS_MAX_CONNECTION_AGE_MS (0 = never), AGENTS_MCP_SERVERS (`id=url,…`),
 * AGENTS_DATA_DIR, DATABASE_URL, AGENTS_BREAKER_WINDOW_MS, AGENTS_BREAKER_MIN_CALLS,
 * AGENTS_BREAKER_ERROR_RATE (0..1), AGENTS_BREAKER_OPEN_MS,
 * AGENTS_BREAKER_MINIMUM_BUDGET_MS, AGENTS_MCP_CALL_TIMEOUT_MS,
 * AGENTS_MCP_CONNECT_TIMEOUT_MS, AGENTS_MCP_RECONNECT_MS (0 = lazy only),
 * AGENTS_MCP_RECONNECT_MAX_MS, AGENTS_MCP_PROTOCOL (`auto` or `legacy`), AGENTS_MIN_DEADLINE_MS, AGENTS_DEADLINE_RESERVE_MS,
 * AGENTS_MAX_RUNNING_TASKS, AGENTS_REMOTE_CANCEL_TIMEOUT_MS, AGENTS_TASK_LEASE_MS,
 * AGENTS_TASK_LIST_PAGE_SIZE, AGENTS_TASK_LIST_MAX_PAGE_SIZE, REDIS_URL (and the other REDIS_* of
 * @s2sp/platform's redisOptionsFromEnv), AGENTS_MCP_AUDIENCES (`id=audience,…`; default `<id>-server`),
 * AGENTS_METRICS_PORT (default 9464, 0 = any free port), AGENTS_METRICS_HOST,
 * AGENTS_PLANNER (`declarative` or `model`), AGENTS_PLANNER_MAX_TOKENS, AGENTS_PLANNER_MAX_TURNS,
 * AGENTS_MODEL_API, AGENTS_MODEL_URL, AGENTS_MODEL_NAME, AGENTS_MODEL_API_KEY_FILE or AGENTS_MODEL_API_KEY,
 * AGENTS_MODEL_TIMEOUT_MS, AGENTS_MODEL_MAX_RESPONSE_BYTES,
 * AGENTS_SAMPLING_SERVERS, AGENTS_SAMPLING_MODEL_HINTS, AGENTS_SAMPLING_MAX_TOKENS,
 * AGENTS_SAMPLING_MAX_TASK_TOKENS, AGENTS_SAMPLING_RATE_PER_MINUTE, AGENTS_SAMPLING_MAX_REQUEST_CHARS,
 * AGENTS_MCP_ROOTS (`server=file:///path,…`, `*` for every server),
 * S2SP_SHUTDOWN_GRACE_MS and S2SP_SHUTDOWN_NOT_READY_DELAY_MS (shutdownOptionsFromEnv of @s2sp/platform),
 * the OTEL_* variables (telemetryOptionsFromEnv of @s2sp/telemetry) and the S2SP_AUTH_* variables of @s2sp/auth.
 * @public
 */
export function agentsConfigFromEnv(): AgentsConfig {
  const defaults = DEFAULT_AGENTS_CONFIG;
  const config: AgentsConfig = {
    host: envString('AGENTS_HOST', defaults.host),
    port: envInt('AGENTS_PORT', defaults.port, { max: 65535 }),
    maxConnectionAgeMs: envInt('AGENTS_MAX_CONNECTION_AGE_MS', defaults.maxConnectionAgeMs ?? 0, { max: MAX_TIMER_MS }),
    mcpServers: withMcpAudiences(
      parseMcpServerList(envString('AGENTS_MCP_SERVERS', DEFAULT_MCP_SERVERS)),
      envString('AGENTS_MCP_AUDIENCES', ''),
    ),
    databaseUrl: envOptional('DATABASE_URL'),
    dataDir: envString('AGENTS_DATA_DIR', defaults.dataDir),
    breaker: {
      windowMs: envInt('AGENTS_BREAKER_WINDOW_MS', defaults.breaker.windowMs, { min: 1 }),
      minimumCalls: envInt('AGENTS_BREAKER_MIN_CALLS', defaults.breaker.minimumCalls, { min: 1 }),
      errorRateThreshold: rateFromEnv('AGENTS_BREAKER_ERROR_RATE', defaults.breaker.errorRateThreshold),
      openDurationMs: envInt('AGENTS_BREAKER_OPEN_MS', defaults.breaker.openDurationMs, { min: 1 }),
      minimumBudgetMs: envInt('AGENTS_BREAKER_MINIMUM_BUDGET_MS', DEFAULT_BREAKER_MINIMUM_BUDGET_MS, {
        max: MAX_TIMER_MS,
      }),
    },
    mcp: {
      callTimeoutMs: envInt('AGENTS_MCP_CALL_TIMEOUT_MS', defaults.mcp.callTimeoutMs, { min: 1 }),
      connectTimeoutMs: envInt('AGENTS_MCP_CONNECT_TIMEOUT_MS', defaults.mcp.connectTimeoutMs, { min: 1 }),
      reconnectInitialDelayMs: envInt('AGENTS_MCP_RECONNECT_MS', defaults.mcp.reconnectInitialDelayMs),
      reconnectMaxDelayMs: envInt('AGENTS_MCP_RECONNECT_MAX_MS', defaults.mcp.reconnectMaxDelayMs, { min: 1 }),
      protocol: envChoice('AGENTS_MCP_PROTOCOL', MCP_PROTOCOL_MODES, DEFAULT_MCP_PROTOCOL),
    },
    deadlines: {
      minRemainingMs: envInt('AGENTS_MIN_DEADLINE_MS', defaults.deadlines.minRemainingMs),
      responseReserveMs: envInt('AGENTS_DEADLINE_RESERVE_MS', defaults.deadlines.responseReserveMs),
    },
    maxRunningTasks: envInt('AGENTS_MAX_RUNNING_TASKS', defaults.maxRunningTasks, { min: 1 }),
    remoteCancelTimeoutMs: envInt('AGENTS_REMOTE_CANCEL_TIMEOUT_MS', defaults.remoteCancelTimeoutMs, { min: 1 }),
    taskLeaseMs: envInt('AGENTS_TASK_LEASE_MS', defaults.taskLeaseMs, { min: 3 }),
    taskList: {
      defaultPageSize: envInt('AGENTS_TASK_LIST_PAGE_SIZE', DEFAULT_TASK_LIST_CONFIG.defaultPageSize, { min: 1 }),
      maxPageSize: envInt('AGENTS_TASK_LIST_MAX_PAGE_SIZE', DEFAULT_TASK_LIST_CONFIG.maxPageSize, { min: 1 }),
    },
    auth: authOptionsFromEnv('agents', process.env),
    auditRetention: auditRetentionFromEnv(),
    metricsPort: envInt('AGENTS_METRICS_PORT', DEFAULT_AGENTS_METRICS_PORT, { max: 65535 }),
    metricsHost: envString('AGENTS_METRICS_HOST', '127.0.0.1'),
    sampling: samplingConfigFromEnv(),
    planner: envChoice('AGENTS_PLANNER', ['declarative', 'model'] as const, 'declarative'),
    plannerMaxTokens: envInt('AGENTS_PLANNER_MAX_TOKENS', DEFAULT_PLANNER_MAX_TOKENS, { min: 1 }),
    plannerMaxTurns: envInt('AGENTS_PLANNER_MAX_TURNS', DEFAULT_PLANNER_MAX_TURNS, { min: 1 }),
    roots: mcpRootsFromEnv(),
    shutdown: shutdownOptionsFromEnv(),
    telemetry: telemetryOptionsFromEnv(process.env),
  };
  const redis = redisOptionsFromEnv();
  if (redis) config.redis = redis;
  const model = modelEndpointFromEnv();
  if (model) config.model = model;
  validateAgentsConfig(config);
  return config;
}

/** Checks a configuration (from the environment or built by hand); throws naming the bad field. */
export function validateAgentsConfig(config: AgentsConfig): void {
  if (typeof config.host !== 'string' || config.host.trim() === '') throw new Error('host must be a non-empty string');
  integer('port', config.port, 0, 65535);
  if (config.maxConnectionAgeMs !== undefined)
    integer('maxConnectionAgeMs', config.maxConnectionAgeMs, 0, MAX_TIMER_MS);
  if (!Array.isArray(config.mcpServers)) throw new Error('mcpServers must be an array of { id, url }');
  validateMcpServers(config.mcpServers);
  if (typeof config.dataDir !== 'string' || config.dataDir.trim() === '')
    throw new Error('dataDir must be a non-empty string');
  validateCircuitBreakerOptions(config.breaker, 'breaker');
  if (config.warmUp !== undefined && typeof config.warmUp !== 'boolean')
    throw new Error(`warmUp must be true or false; got ${String(config.warmUp)}`);
  if (config.breaker.minimumBudgetMs !== undefined)
    integer('breaker.minimumBudgetMs', config.breaker.minimumBudgetMs, 0, MAX_TIMER_MS);
  integer('mcp.callTimeoutMs', config.mcp.callTimeoutMs, 1);
  integer('mcp.connectTimeoutMs', config.mcp.connectTimeoutMs, 1);
  integer('mcp.reconnectInitialDelayMs', config.mcp.reconnectInitialDelayMs, 0);
  integer('mcp.reconnectMaxDelayMs', config.mcp.reconnectMaxDelayMs, 1);
  if (config.mcp.protocol !== undefined && !MCP_PROTOCOL_MODES.includes(config.mcp.protocol))
    throw new Error(
      `mcp.protocol must be one of ${MCP_PROTOCOL_MODES.join(', ')} (got ${JSON.stringify(config.mcp.protocol)})`,
    );
  integer('deadlines.minRemainingMs', config.deadlines.minRemainingMs, 0);
  integer('deadlines.responseReserveMs', config.deadlines.responseReserveMs, 0);
  integer('maxRunningTasks', config.maxRunningTasks, 1);
  integer('remoteCancelTimeoutMs', config.remoteCancelTimeoutMs, 1);
  integer('taskLeaseMs', config.taskLeaseMs, 3);
  if (config.taskList !== undefined) {
    integer('taskList.maxPageSize', config.taskList.maxPageSize, 1);
    integer('taskList.defaultPageSize', config.taskList.defaultPageSize, 1, config.taskList.maxPageSize);
  }
  if (config.redis) validateRedisOptions(config.redis, 'redis');
  if (config.metricsPort !== undefined) integer('metricsPort', config.metricsPort, 0, 65535);
  const serverIds = config.mcpServers.map((server) => server.id);
  if (config.sampling !== undefined) validateSamplingConfig(config.sampling, serverIds);
  if (config.roots !== undefined) validateMcpRoots(config.roots, serverIds);
  if (config.planner !== undefined && config.planner !== 'declarative' && config.planner !== 'model')
    throw new Error(`planner must be "declarative" or "model"; got ${String(config.planner)}`);
  if (config.model !== undefined) validateModelEndpoint(config.model);
  if (config.plannerMaxTokens !== undefined) integer('plannerMaxTokens', config.plannerMaxTokens, 1);
  if (config.plannerMaxTurns !== undefined) integer('plannerMaxTurns', config.plannerMaxTurns, 1);
}

function integer(field: string, value: number, min: number, max = Number.MAX_SAFE_INTEGER): void {
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${field} must be an integer from ${min} to ${max}; got ${String(value)}`);
  }
}

function rateFromEnv(name: string, fallback: number): number {
  const raw = envOptional(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > 1) {
    throw new Error(`Environment variable ${name} must be a number in (0, 1]; got "${raw}".`);
  }
  return value;
}
