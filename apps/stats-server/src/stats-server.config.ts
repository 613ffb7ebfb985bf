import { authOptionsFromEnv, type AuthModuleOptions } from '@s2sp/auth';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { logLevelsFromEnv, telemetryOptionsFromEnv, type TelemetryOptions } from '@s2sp/telemetry';
import {
  DEFAULT_ARROW_MIN_ROWS,
  s2spLimitsFromEnv,
  type S2spLimits,
  allowedHostsFromEnv,
  mcpHttpLimitsFromEnv,
  protectedResourceFromEnv,
  type McpServerAuthOptions,
  type McpHttpLimits,
  auditRetentionFromEnv,
  type AuditRetentionOptions,
  dataPlaneFetchAuditRetryFromEnv,
  type DataPlaneFetchAuditRetry,
} from '@s2sp/core';
import {
  envInt,
  envList,
  envOptional,
  envString,
  parsePairs,
  shutdownOptionsFromEnv,
  type ShutdownOptions,
} from '@s2sp/platform';

export interface StatsServerConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  transport: 'http' | 'stdio';
  /** Origins of resource servers whose resource_urls this consumer may fetch. */
  allowedResourceOrigins: string[];
  fetchTimeoutMs: number;
  /** Answers of fewer rows are fetched as JSON, larger ones as Arrow when offered (S2SP_ARROW_MIN_ROWS). */
  arrowMinRows?: number;
  /** Audience (service name) of each allowed resource server, by origin: the caller's token is narrowed for it. */
  resourceAudiences: Record<string, string>;
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir (where the audit table lives). */
  databaseUrl?: string;
  dataDir: string;
  /** Data-plane and row limits (S2SP_MAX_* variables). */
  limits?: Partial<S2spLimits>;
  /** Host values /mcp and the data plane answer to (S2SP_ALLOWED_HOSTS); default loopback on the bound port, plus the public URL's host. */
  allowedHosts?: string[];
  /** Browser origins allowed on /mcp and the data plane (S2SP_ALLOWED_ORIGINS); default the origins of the allowed hosts. */
  allowedOrigins?: string[];
  /** `maxTokens` of the summary draw_chart asks the client's model for (`summarize: true`); STATS_SUMMARY_MAX_TOKENS, default 256. */
  summaryMaxTokens?: number;
  /** Limits of `/mcp` over HTTP (serveMcp's `mcpLimits`; the S2SP_MCP_* variables). */
  mcpLimits?: Partial<McpHttpLimits>;
  /** Caller authentication on /mcp (audience "stats-server" by default). */
  auth: AuthModuleOptions;
  /**
   * `/mcp` as an OAuth protected resource (serveMcp's `auth` besides the audience): its public URL,
   * authorization servers and scopes (S2SP_MCP_RESOURCE_URL, S2SP_MCP_AUTHORIZATION_SERVERS, S2SP_MCP_SCOPES_SUPPORTED).
   */
  protectedResource?: Pick<McpServerAuthOptions, 'resource' | 'authorizationServers' | 'scopesSupported'>;
  /** How long the audit trails are kept (default DEFAULT_AUDIT_RETENTION of @s2sp/core: 30 days; S2SP_AUDIT_RETENTION_*). */
  auditRetention?: AuditRetentionOptions;
  /** Bounds of the data-plane fetch audit's buffer while the database fails (S2SP_DATA_FETCH_AUDIT_*). */
  dataPlaneFetchAudit?: Partial<DataPlaneFetchAuditRetry>;
  /**
   * Load while starting, before listening, what the first call would otherwise load (vega and vega-lite, with one small chart).
   * Default true; false for processes started many times whose first call's latency does not matter (tests).
   */
  warmUp?: boolean;
  /** Graceful shutdown on SIGTERM (serveMcp's `shutdown`; S2SP_SHUTDOWN_GRACE_MS, S2SP_SHUTDOWN_NOT_READY_DELAY_MS). */
  shutdown?: Partial<ShutdownOptions>;
  /** Telemetry overrides (service name `s2sp-stats-server`), e.g. a test's shared `spanExporter`; from the environment, the OTEL_* variables. */
  telemetry?: Partial<TelemetryOptions>;
  /**
   * Nest logger: false for none, a list of levels, or a LoggerService of your own.
   * Default: JSON lines (to stderr on stdio) of every level; from the environment, the LOG_LEVELS levels.
   */
  logger?: LoggerService | LogLevel[] | false;
}

export const DEFAULT_SUMMARY_MAX_TOKENS = 256;
export const MAX_SUMMARY_MAX_TOKENS = 32_768;

export function statsConfigFromEnv(transport: 'http' | 'stdio' = 'http'): StatsServerConfig {
  const weatherPort = envInt('WEATHER_PORT', 3101, { max: 65535 });
  return {
    host: envString('STATS_HOST', '127.0.0.1'),
    port: envInt('STATS_PORT', 3102, { max: 65535 }),
    transport,
    allowedResourceOrigins: envList('STATS_ALLOWED_RESOURCE_ORIGINS', [
      `http://127.0.0.1:${weatherPort}`,
      `http://localhost:${weatherPort}`,
    ]),
    fetchTimeoutMs: envInt('S2SP_FETCH_TIMEOUT_MS', 10_000, { min: 1 }),
    arrowMinRows: envInt('S2SP_ARROW_MIN_ROWS', DEFAULT_ARROW_MIN_ROWS, { min: 0 }),
    resourceAudiences: Object.fromEntries(
      parsePairs(
        envString(
          'STATS_RESOURCE_AUDIENCES',
          `http://127.0.0.1:${weatherPort}=weather-server,http://localhost:${weatherPort}=weather-server`,
        ),
        'STATS_RESOURCE_AUDIENCES',
        'origin=audience',
        'http://127.0.0.1:3101=weather-server',
      ),
    ),
    databaseUrl: envOptional('DATABASE_URL'),
    dataDir: envString('STATS_DATA_DIR', '.data/stats-server'),
    limits: s2spLimitsFromEnv(),
    ...allowedHostsFromEnv(),
    mcpLimits: mcpHttpLimitsFromEnv(),
    summaryMaxTokens: envInt('STATS_SUMMARY_MAX_TOKENS', DEFAULT_SUMMARY_MAX_TOKENS, {
      min: 1,
      max: MAX_SUMMARY_MAX_TOKENS,
    }),
    auth: authOptionsFromEnv('stats-server', process.env),
    protectedResource: protectedResourceFromEnv(),
    auditRetention: auditRetentionFromEnv(),
    dataPlaneFetchAudit: dataPlaneFetchAuditRetryFromEnv(),
    shutdown: shutdownOptionsFromEnv(),
    telemetry: telemetryOptionsFromEnv(process.env),
    logger: logLevelsFromEnv(process.env),
  };
}
