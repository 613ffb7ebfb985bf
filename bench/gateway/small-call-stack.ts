// The in-process stack the gateway-hop scripts measure: the test MCP server (`echo`), the agents, the gateway.
import { startAgents } from '../../libs/agents/src/start-agents';
import { DEFAULT_AGENTS_CONFIG } from '../../libs/agents/src/agents.config';
import { startGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { startTestMcpServer } from '../../test/support/test-mcp-server';

export type SmallCallStack = Awaited<ReturnType<typeof startSmallCallStack>>;

/** Embedded databases in memory, no logs, a rate limit no bench reaches. */
export async function startSmallCallStack() {
  const testkit = await startTestMcpServer();
  const agents = await startAgents(
    {
      ...DEFAULT_AGENTS_CONFIG,
      port: 0,
      dataDir: ':memory:',
      auth: { audience: 'agents' },
      mcpServers: [{ id: 'testkit', url: testkit.mcpUrl }],
    },
    { logger: false },
  );
  const gateway = await startGateway({
    ...defaultGatewayConfig(),
    port: 0,
    agentsUrl: agents.url,
    dataDir: ':memory:',
    logger: false,
    rateLimit: { limit: 1_000_000_000, windowMs: 60_000 },
  });
  return {
    testkit,
    agents,
    gateway,
    async close(): Promise<void> {
      await gateway.close();
      await agents.close();
      await testkit.close();
    },
  };
}

/** Runs a bench script's main, printing a failure's stack and exiting non-zero. */
export function runBench(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  });
}
