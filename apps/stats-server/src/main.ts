import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal, releaseStartupMemory } from '@s2sp/platform';
import { statsConfigFromEnv } from './stats-server.config';
import { startStatsServer } from './stats-server';

async function main(): Promise<void> {
  const server = await startStatsServer(statsConfigFromEnv('http'));
  const logger = new Logger('stats-server');
  logger.log(`MCP at ${server.url}/mcp`);
  releaseStartupMemory();
  exitOnTerminationSignal(() => server.shutdown(), logger);
}

main().catch((error: unknown) => {
  console.error(`stats-server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
