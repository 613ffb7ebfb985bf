import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal, releaseStartupMemory } from '@s2sp/platform';
import { agentsConfigFromEnv, startAgents } from '@s2sp/agents';
import { logLevelsFromEnv } from '@s2sp/telemetry';

async function main(): Promise<void> {
  const config = agentsConfigFromEnv();
  const agents = await startAgents(config, { logger: logLevelsFromEnv(process.env) });
  const logger = new Logger('agents');
  logger.log(
    `gRPC (s2sp.v1.ToolService, s2sp.v1.AgentService, grpc.health.v1.Health, grpc.reflection.v1) on ${agents.url}`,
  );
  if (agents.metricsUrl) logger.log(`Prometheus metrics at ${agents.metricsUrl}`);
  releaseStartupMemory();
  exitOnTerminationSignal(() => agents.shutdown(), logger);
}

main().catch((error: unknown) => {
  console.error(`agents failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
