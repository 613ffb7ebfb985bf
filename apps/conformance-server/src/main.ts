import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal } from '@s2sp/platform';
import { startConformanceServer } from './conformance-server';

async function main(): Promise<void> {
  const server = await startConformanceServer({
    host: process.env['HOST'] ?? '127.0.0.1',
    port: Number(process.env['PORT'] ?? 3100),
  });
  const logger = new Logger('conformance-server');
  logger.log(`MCP at ${server.url}/mcp`);
  exitOnTerminationSignal(() => server.shutdown(), logger);
}

main().catch((error: unknown) => {
  console.error(`conformance-server failed to start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
