import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal, releaseStartupMemory } from '@s2sp/platform';
import { weatherConfigFromEnv } from './weather-server.config';
import { startWeatherServer } from './weather-server';

async function main(): Promise<void> {
  const server = await startWeatherServer(weatherConfigFromEnv('http'));
  const logger = new Logger('weather-server');
  logger.log(`MCP at ${server.url}/mcp, data plane at ${server.url}/s2sp/data`);
  releaseStartupMemory();
  exitOnTerminationSignal(() => server.shutdown(), logger);
}

main().catch((error: unknown) => {
  console.error(`weather-server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
