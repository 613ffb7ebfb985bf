import { authOptionsFromEnv, type AuthModuleOptions } from '@s2sp/auth';
import type { LoggerService, LogLevel } from '@nestjs/common';
import { logLevelsFromEnv, telemetryOptionsFromEnv, type TelemetryOptions } from '@s2sp/telemetry';
import {
  dataPlaneAuthFromEnv,
  s2spLimitsFromEnv,
  type DataPlaneAuthPolicy,
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
import { envInt, envOptional, envString, shutdownOptionsFromEnv, type ShutdownOptions } from '@s2sp/platform';

export interface WeatherServerConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** Base of issued resource_urls; defaults to the address the server listens on. */
  publicBaseUrl?: string;
  transport: 'http' | 'stdio';
  /** HTTP platform of the app (default `express`): `/mcp`, the data plane and their auth answer the same on both. */
  platform?: 'express' | 'fastify';
  /** `postgresql://…` for a real server; unset for an embedded PostgreSQL server in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  resourceTtlMs: number;
  sweepIntervalMs: number;
  /** Data-plane and row limits (S2SP_MAX_* variables). */
  limits?: Partial<S2spLimits>;
  /** Host values /mcp and the data plane answer to (S2SP_ALLOWED_HOSTS); default loopback on the bound port, plus the public URL's host. */
  allowedHosts?: string[];
  /** Browser origins allowed on /mcp and the data plane (S2SP_ALLOWED_ORIGINS); default the origins of the allowed hosts. */
  allowedOrigins?: string[];
  /**
   * Who may fetch resource_urls (S2SP_DATA_PLANE_AUTH). Default `bearer` over
   * HTTP; `capability` over stdio, where no caller token exists to bind a
   * resource to or for a consumer to fetch with.
   */
  dataPlaneAuth?: DataPlaneAuthPolicy;
  /**
   * Advance the alert data set every this many ms (WEATHER_ALERT_UPDATE_INTERVAL_MS), notifying
   * subscribed MCP clients; 0 (default) keeps the standard data set until advanced on demand.
   */
  alertUpdateIntervalMs?: number;
  /** Limits of `/mcp` over HTTP (serveMcp's `mcpLimits`; the S2SP_MCP_* variables). */
  mcpLimits?: Partial<McpHttpLimits>;
  /** Caller authentication on /mcp and the data plane (audience "weather-server" by default). */
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
   * Load while starting, before listening, what the first call would otherwise load (the token counter of get_alerts).
   * Default true; false for processes started many times whose first call's latency does not matter (tests).
   */
  warmUp?: boolean;
  /** Graceful shutdown on SIGTERM (serveMcp's `shutdown`; S2SP_SHUTDOWN_GRACE_MS, S2SP_SHUTDOWN_NOT_READY_DELAY_MS). */
  shutdown?: Partial<ShutdownOptions>;
  /** Telemetry overrides (service name `s2sp-weather-server`), e.g. a test's shared `spanExporter`; from the environment, the OTEL_* variables. */
  telemetry?: Partial<TelemetryOptions>;
  /**
   * Nest logger: false for none, a list of levels, or a LoggerService of your own.
   * Default: JSON lines (to stderr on stdio) of every level; from the environment, the LOG_LEVELS levels.
   */
  logger?: LoggerService | LogLevel[] | false;
}

export function weatherConfigFromEnv(transport: 'http' | 'stdio' = 'http'): WeatherServerConfig {
  return {
    host: envString('WEATHER_HOST', '127.0.0.1'),
    port: envInt('WEATHER_PORT', 3101, { max: 65535 }),
    publicBaseUrl: envOptional('WEATHER_PUBLIC_URL'),
    transport,
    databaseUrl: envOptional('DATABASE_URL'),
    dataDir: envString('WEATHER_DATA_DIR', '.data/weather-server'),
    resourceTtlMs: envInt('S2SP_RESOURCE_TTL_MS', 10 * 60 * 1000, { min: 1 }),
    sweepIntervalMs: envInt('S2SP_SWEEP_INTERVAL_MS', 60 * 1000),
    limits: s2spLimitsFromEnv(),
    ...allowedHostsFromEnv(),
    mcpLimits: mcpHttpLimitsFromEnv(),
    dataPlaneAuth: dataPlaneAuthFromEnv(defaultDataPlaneAuth(transport)),
    auth: authOptionsFromEnv('weather-server', process.env),
    protectedResource: protectedResourceFromEnv(),
    auditRetention: auditRetentionFromEnv(),
    dataPlaneFetchAudit: dataPlaneFetchAuditRetryFromEnv(),
    shutdown: shutdownOptionsFromEnv(),
    telemetry: telemetryOptionsFromEnv(process.env),
    logger: logLevelsFromEnv(process.env),
    alertUpdateIntervalMs: envInt('WEATHER_ALERT_UPDATE_INTERVAL_MS', 0),
  };
}

export function defaultDataPlaneAuth(transport: 'http' | 'stdio'): DataPlaneAuthPolicy {
  return transport === 'stdio' ? 'capability' : 'bearer';
}
