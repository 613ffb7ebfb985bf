import { weatherConfigFromEnv } from './weather-server.config';
import { startWeatherServer } from './weather-server';

// MCP over stdin/stdout for desktop clients; the data plane still listens on
// WEATHER_PORT so consumer servers can fetch resource_urls. Nothing may be
// written to stdout but the protocol.
startWeatherServer(weatherConfigFromEnv('stdio')).catch((error: unknown) => {
  process.stderr.write(`weather-server (stdio) failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
