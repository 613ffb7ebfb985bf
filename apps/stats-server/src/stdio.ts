import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal } from '@s2sp/platform';
import { statsConfigFromEnv } from './stats-server.config';
import { startStatsServer } from './stats-server';

// MCP over stdin/stdout for desktop clients. Nothing may be written to stdout but the protocol.
startStatsServer(statsConfigFromEnv('stdio'))
  .then(
    // Nest's Logger writes through the app's logger, which keeps to stderr on stdio.
    (server) => exitOnTerminationSignal(() => server.shutdown(), new Logger('stats-server')),
  )
  .catch((error: unknown) => {
    process.stderr.write(
      `stats-server (stdio) failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
