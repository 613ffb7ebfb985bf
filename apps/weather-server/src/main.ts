import { Logger } from '@nestjs/common';
import { weatherConfigFromEnv } from './weather-server.config';
import { startWeatherServer } from './weather-server';

async function main(): Promise<void> {
  const server = await startWeatherServer(weatherConfigFromEnv('http'));
  new Logger('weather-server').log(`MCP at ${server.url}/mcp, data plane at ${server.url}/s2sp/data`);
}

main().catch((error: unknown) => {
  console.error(`weather-server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
