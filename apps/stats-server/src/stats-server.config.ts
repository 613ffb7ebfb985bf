import { envInt, envList, envString } from '@s2sp/core';

export interface StatsServerConfig {
  host: string;
  /** 0 picks a free port. */
  port: number;
  transport: 'http' | 'stdio';
  /** Origins of resource servers whose resource_urls this consumer may fetch. */
  allowedResourceOrigins: string[];
  fetchTimeoutMs: number;
}

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
  };
}
