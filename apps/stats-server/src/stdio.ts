import { statsConfigFromEnv } from './stats-server.config';
import { startStatsServer } from './stats-server';

// MCP over stdin/stdout for desktop clients. Nothing may be written to stdout but the protocol.
startStatsServer(statsConfigFromEnv('stdio')).catch((error: unknown) => {
  process.stderr.write(`stats-server (stdio) failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
