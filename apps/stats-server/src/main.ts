import { Logger } from '@nestjs/common';
import { statsConfigFromEnv } from './stats-server.config';
import { startStatsServer } from './stats-server';

async function main(): Promise<void> {
  const server = await startStatsServer(statsConfigFromEnv('http'));
  new Logger('stats-server').log(`MCP at ${server.url}/mcp`);
}

main().catch((error: unknown) => {
  console.error(`stats-server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
