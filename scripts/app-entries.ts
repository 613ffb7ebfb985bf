// The apps the container image runs (Dockerfile, compose.yaml, deploy/k8s/):
// the command names one, scripts/app-entry.ts starts it and
// scripts/app-health.ts probes it.

export type AppName = 'gateway' | 'agents' | 'weather-server' | 'stats-server';

export interface AppEntry {
  /** Compiled main module, relative to dist/. */
  main: string;
  /** The variable that sets the app's port, and its default. */
  portEnv: string;
  defaultPort: number;
  /** How its readiness is asked: GET /health, or grpc.health.v1.Health/Check. */
  probe: 'http' | 'grpc';
}

export const APP_ENTRIES: Readonly<Record<AppName, AppEntry>> = {
  gateway: { main: 'apps/gateway/src/main.js', portEnv: 'GATEWAY_PORT', defaultPort: 3000, probe: 'http' },
  agents: { main: 'apps/agents/src/main.js', portEnv: 'AGENTS_PORT', defaultPort: 50051, probe: 'grpc' },
  'weather-server': {
    main: 'apps/weather-server/src/main.js',
    portEnv: 'WEATHER_PORT',
    defaultPort: 3101,
    probe: 'http',
  },
  'stats-server': { main: 'apps/stats-server/src/main.js', portEnv: 'STATS_PORT', defaultPort: 3102, probe: 'http' },
};

export function isAppName(name: string | undefined): name is AppName {
  return name !== undefined && Object.hasOwn(APP_ENTRIES, name);
}

export const APP_USAGE = `one of: ${Object.keys(APP_ENTRIES).join(', ')}`;
