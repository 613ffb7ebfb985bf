// The platform path the benchmarks time, started in this process: weather
// server and a tiny test MCP server behind the agents, behind the gateway.
import { DEFAULT_AGENTS_CONFIG } from '../../libs/agents/src/agents.config';
import { startAgents } from '../../libs/agents/src/start-agents';
import { startGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { startWeatherServer } from '../../apps/weather-server/src/weather-server';
import type { TelemetryOptions } from '@s2sp/telemetry';
import { startTestMcpServer } from '../../test/support/test-mcp-server';
import { bearerFor } from '../../test/support/tokens';

export interface BenchStack {
  gatewayUrl: string;
  weatherMcpUrl: string;
  testkitMcpUrl: string;
  /** A caller's token for calling the weather server directly (its /mcp requires one). */
  weatherAuthorization: string;
  /** JSON-RPC `tools.call` (or a batch of them) through the gateway, with a caller's token. */
  rpc(body: unknown): Promise<any>;
  close(): Promise<void>;
}

/** Every app of the stack gets `telemetry` (e.g. a span exporter; nothing = tracing off). Logging is off. */
export async function startBenchStack(telemetry: Partial<TelemetryOptions> = {}): Promise<BenchStack> {
  const weather = await startWeatherServer({
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    dataDir: ':memory:',
    resourceTtlMs: 600_000,
    sweepIntervalMs: 0,
    auth: { audience: 'weather-server' },
    telemetry,
    logger: false,
  });
  const testkit = await startTestMcpServer();
  const agents = await startAgents(
    {
      ...DEFAULT_AGENTS_CONFIG,
      port: 0,
      dataDir: ':memory:',
      auth: { audience: 'agents' },
      telemetry,
      mcpServers: [
        { id: 'weather', url: `${weather.url}/mcp` },
        { id: 'testkit', url: testkit.mcpUrl },
      ],
    },
    { logger: false },
  );
  const gateway = await startGateway({
    ...defaultGatewayConfig(),
    port: 0,
    agentsUrl: agents.url,
    dataDir: ':memory:',
    logger: false,
    telemetry,
    rateLimit: { limit: 1_000_000, windowMs: 60_000 },
  });
  const authorization = await bearerFor({ audience: 'gateway' });
  const weatherAuthorization = await bearerFor({ audience: 'weather-server' });
  return {
    gatewayUrl: gateway.url,
    weatherMcpUrl: `${weather.url}/mcp`,
    testkitMcpUrl: testkit.mcpUrl,
    weatherAuthorization,
    rpc: async (body) => {
      const response = await fetch(`${gateway.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify(body),
      });
      return response.json();
    },
    close: async () => {
      await gateway.close();
      await agents.close();
      await testkit.close();
      await weather.close();
    },
  };
}
