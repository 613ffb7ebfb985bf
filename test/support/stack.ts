import type { LogLevel } from '@nestjs/common';
import type { RunningMcpServer } from '@s2sp/core';
import { logLevelsFromEnv } from '@s2sp/telemetry';
import { startStatsServer } from '../../apps/stats-server/src/stats-server';
import type { StatsServerConfig } from '../../apps/stats-server/src/stats-server.config';
import { startWeatherServer } from '../../apps/weather-server/src/weather-server';
import type { WeatherServerConfig } from '../../apps/weather-server/src/weather-server.config';
import { bearerFor, type TestTokenRequest } from './tokens';

/** The HTTP platforms S2spModule and serveMcp run on; core end-to-end suites run on each. */
export const HTTP_PLATFORMS = ['express', 'fastify'] as const;

export { tempDir } from './temp-dir';

/** The levels the test runner asks servers to log (LOG_LEVELS, `error,warn` under npm test), read as the apps read them. */
export function testLogLevels(): LogLevel[] | undefined {
  return logLevelsFromEnv(process.env);
}

export function weatherConfig(overrides: Partial<WeatherServerConfig> = {}): WeatherServerConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    dataDir: ':memory:',
    resourceTtlMs: 10 * 60 * 1000,
    sweepIntervalMs: 0,
    auth: { audience: 'weather-server' },
    logger: testLogLevels(),
    // Started hundreds of times by the suite: what only a first call's latency needs is not loaded up front.
    warmUp: false,
    ...overrides,
  };
}

export function statsConfig(
  allowedResourceOrigins: string[],
  overrides: Partial<StatsServerConfig> = {},
): StatsServerConfig {
  return {
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    allowedResourceOrigins,
    resourceAudiences: Object.fromEntries(allowedResourceOrigins.map((origin) => [origin, 'weather-server'])),
    fetchTimeoutMs: 5_000,
    dataDir: ':memory:',
    auth: { audience: 'stats-server' },
    logger: testLogLevels(),
    // Started hundreds of times by the suite: what only a first call's latency needs is not loaded up front.
    warmUp: false,
    ...overrides,
  };
}

export function startWeather(overrides: Partial<WeatherServerConfig> = {}): Promise<RunningMcpServer> {
  return startWeatherServer(weatherConfig(overrides));
}

export function startStats(
  allowedResourceOrigins: string[],
  overrides: Partial<StatsServerConfig> = {},
): Promise<RunningMcpServer> {
  return startStatsServer(statsConfig(allowedResourceOrigins, overrides));
}

/**
 * POSTs a data-plane fetch the way any consumer (ours or the Python SDK's)
 * does, with the test caller's token for the weather server unless `auth` says
 * otherwise (`null`: no Authorization header).
 */
export async function fetchResource(
  resourceUrl: string,
  body?: unknown,
  auth: Partial<TestTokenRequest> | null = {},
): Promise<{ status: number; json: any }> {
  const authorization = auth === null ? undefined : await bearerFor({ audience: 'weather-server', ...auth });
  const response = await fetch(resourceUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}
