// The whole platform in this process for browser-facing tests: weather, stats and the
// testkit MCP servers, the agents (gRPC) and the gateway, every hop real.
import type { RunningMcpServer } from '@s2sp/core';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig, type GatewayConfig } from '../../libs/gateway/src/gateway.config';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from './agents-stack';
import { startStats, startWeather } from './stack';
import { startTestMcpServer, type TestMcpServer } from './test-mcp-server';
import { bearerFor } from './tokens';

export interface PlatformStack {
  weather: RunningMcpServer;
  stats: RunningMcpServer;
  testkit: TestMcpServer;
  agents: RunningAgents;
  gateway: RunningGateway;
  close(): Promise<void>;
}

/** Starts every app, and resolves once the agents have discovered the tools of every MCP server. */
export async function startPlatformStack(gatewayOverrides: Partial<GatewayConfig> = {}): Promise<PlatformStack> {
  const weather = await startWeather();
  const stats = await startStats([weather.url]);
  const testkit = await startTestMcpServer();
  const agents = await startTestAgents(
    agentsTestConfig([
      { id: 'weather', url: `${weather.url}/mcp` },
      { id: 'stats', url: `${stats.url}/mcp` },
      { id: 'testkit', url: testkit.mcpUrl },
    ]),
  );
  const gateway = await startGateway({
    ...defaultGatewayConfig(),
    port: 0,
    agentsUrl: agents.url,
    dataDir: ':memory:',
    logger: false,
    ...gatewayOverrides,
  });
  const stack: PlatformStack = {
    weather,
    stats,
    testkit,
    agents,
    gateway,
    async close() {
      for (const [name, app] of [
        ['gateway', gateway],
        ['agents', agents],
        ['testkit', testkit],
        ['stats', stats],
        ['weather', weather],
      ] as const) {
        const started = Date.now();
        await app.close();
        if (process.env.DEBUG_CLOSE) console.error(`${name} closed in ${Date.now() - started} ms`);
      }
    },
  };
  try {
    const authorization = await bearerFor({ audience: 'gateway', scopes: ['tools:list'] });
    await eventually('every MCP server discovered', async () => {
      const response = await fetch(`${gateway.url}/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools.list', params: { page_size: 200 } }),
      });
      const names =
        ((await response.json()) as { result?: { tools: Array<{ name: string }> } }).result?.tools.map(
          (tool) => tool.name,
        ) ?? [];
      return ['get_alerts', 'draw_chart', 'slow_consumer'].every((name) => names.includes(name));
    });
  } catch (error) {
    await stack.close();
    throw error;
  }
  return stack;
}

/** A plan whose last step waits `ms` in the testkit's slow_consumer: a task that runs long enough to cancel. */
export function slowPlan(ms: number): unknown[] {
  return [
    {
      step_id: 'alerts',
      resource_call: {
        server: 'weather',
        tool: 'get_alerts',
        arguments: { area: 'CA' },
        abstract_domains: ['event'],
        mode: 'sync',
      },
    },
    {
      step_id: 'wait',
      consumer_call: { server: 'testkit', tool: 'slow_consumer', arguments: { ms }, input_step_id: 'alerts' },
    },
  ];
}
