import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal, releaseStartupMemory } from '@s2sp/platform';
import { gatewayConfigFromEnv, startGateway } from '@s2sp/gateway';

async function main(): Promise<void> {
  const config = gatewayConfigFromEnv();
  const gateway = await startGateway(config);
  const logger = new Logger('gateway');
  logger.log(`JSON-RPC at ${gateway.url}/rpc, health at ${gateway.url}/health; agents at ${config.agentsUrl}`);
  releaseStartupMemory();
  exitOnTerminationSignal(() => gateway.shutdown(), logger);
}

main().catch((error: unknown) => {
  console.error(`gateway failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
