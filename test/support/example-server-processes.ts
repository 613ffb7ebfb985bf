// The example weather and stats servers as processes (their compiled main.js), with in-memory
// stores, for tests of agents that reach them over MCP the way a third-party agent would.
import { DevKeyStore } from '@s2sp/auth';
import { startApp, waitUntilReady, type AppProcess } from './app-processes';
import { freePort } from './free-port';
import { tempDir } from './temp-dir';
import { bearerFor } from './tokens';

export interface ExampleServerProcesses {
  weatherUrl: string;
  statsUrl: string;
  stop(): Promise<void>;
}

export async function startExampleServerProcesses(): Promise<ExampleServerProcesses> {
  // The servers verify the tokens this process mints: the same dev key, created before they start.
  await bearerFor({ audience: 'weather-server' });
  const workDir = tempDir('s2sp-example-servers-');
  const [weatherPort, statsPort] = [await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir,
    WEATHER_PORT: String(weatherPort),
    STATS_PORT: String(statsPort),
    WEATHER_DATA_DIR: ':memory:',
    STATS_DATA_DIR: ':memory:',
    LOG_LEVELS: 'error,warn',
  };
  const processes: AppProcess[] = [
    startApp('weather-server', 'weather-server', env, workDir.path),
    startApp('stats-server', 'stats-server', env, workDir.path),
  ];
  const stop = async () => {
    await Promise.all(processes.map((process) => process.stop()));
    workDir.remove();
  };
  const urls = [`http://127.0.0.1:${weatherPort}`, `http://127.0.0.1:${statsPort}`];
  try {
    for (const url of urls) await waitUntilReady(`${url}/health`, async (response) => response.ok, processes, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  return { weatherUrl: urls[0], statsUrl: urls[1], stop };
}
