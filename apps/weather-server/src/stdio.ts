import { Logger } from '@nestjs/common';
import { exitOnTerminationSignal } from '@s2sp/platform';
import { weatherConfigFromEnv } from './weather-server.config';
import { startWeatherServer } from './weather-server';

// MCP over stdin/stdout for desktop clients; the data plane still listens on
// WEATHER_PORT so consumer servers can fetch resource_urls. Nothing may be
// written to stdout but the protocol.
startWeatherServer(weatherConfigFromEnv('stdio'))
  .then(
    // Nest's Logger writes through the app's logger, which keeps to stderr on stdio.
    (server) => exitOnTerminationSignal(() => server.shutdown(), new Logger('weather-server')),
  )
  .catch((error: unknown) => {
    process.stderr.write(
      `weather-server (stdio) failed to start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
