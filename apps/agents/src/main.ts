import { Logger } from '@nestjs/common';
import { agentsConfigFromEnv } from './agents.config';
import { startAgents } from './start-agents';

async function main(): Promise<void> {
  const config = agentsConfigFromEnv();
  const agents = await startAgents(config);
  const logger = new Logger('agents');
  logger.log(`gRPC (s2sp.v1.ToolService, s2sp.v1.AgentService, grpc.health.v1.Health, grpc.reflection.v1) on ${agents.url}`);
  if (agents.metricsUrl) logger.log(`Prometheus metrics at ${agents.metricsUrl}`);
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.log(`${signal}: shutting down`);
    agents.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(`agents failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
