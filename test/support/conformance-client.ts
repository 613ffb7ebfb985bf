// The agents' MCP client (McpServerConnection, the same code that reaches MCP servers in a
// task) as a program the official conformance suite drives: `conformance client --command
// "node conformance-client.js"` appends the scenario server's URL and names the scenario in
// MCP_CONFORMANCE_SCENARIO. Each scenario gets what an agent does with a server: connect,
// discover the tools, call the tool the scenario expects.
import { ConsoleLogger } from '@nestjs/common';
import { AGENTS_CLIENT_INFO } from '../../libs/agents/src/mcp/mcp-client-info';
import { McpServerConnection } from '../../libs/agents/src/mcp/mcp-server-connection';
import type { RegisteredTool } from '../../libs/agents/src/mcp/registered-tool';
import { DEFAULT_AGENTS_CONFIG, DEFAULT_BREAKER_MINIMUM_BUDGET_MS } from '../../libs/agents/src/agents.config';

const BUDGET = { timeoutMs: 20_000 };

/** What the client does in each scenario, once connected (the connection itself lists the tools). */
const SCENARIOS: Record<
  string,
  (connection: McpServerConnection, tools: Map<string, RegisteredTool>) => Promise<void>
> = {
  initialize: async () => undefined,
  tools_call: (connection) => callTool(connection, 'add_numbers', { a: 2, b: 3 }),
  // The server closes the call's stream and answers on the notification stream the client reopens.
  'sse-retry': (connection) => callTool(connection, 'test_reconnection', {}),
  'json-schema-2020-12-preservation': async (connection, tools) => {
    // The schema as the agents hold it (what a planner sees and validates arguments against), sent back verbatim.
    const focal = tools.get('json_schema_2020_12_tool');
    const echo = [...tools.keys()].find((name) => name !== 'json_schema_2020_12_tool');
    if (!focal || !echo) throw new Error(`the scenario server listed ${[...tools.keys()].join(', ')}`);
    await callTool(connection, echo, { schema: focal.inputSchema });
  },
};

async function callTool(connection: McpServerConnection, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await connection.request(
    (client, options) => client.callTool({ name, arguments: args }, undefined, options),
    BUDGET,
  );
  if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.content)}`);
}

async function main(): Promise<void> {
  const [url] = process.argv.slice(2);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const run = SCENARIOS[scenario];
  if (!url || !run)
    throw new Error(
      `usage: conformance-client <server url>, with MCP_CONFORMANCE_SCENARIO one of ${Object.keys(SCENARIOS).join(', ')}`,
    );
  const tools = new Map<string, RegisteredTool>();
  const defaults = DEFAULT_AGENTS_CONFIG;
  const connection = new McpServerConnection({
    endpoint: { id: 'conformance', url },
    breaker: { ...defaults.breaker, minimumBudgetMs: DEFAULT_BREAKER_MINIMUM_BUDGET_MS },
    connectTimeoutMs: BUDGET.timeoutMs,
    callTimeoutMs: BUDGET.timeoutMs,
    reconnectInitialDelayMs: 0,
    reconnectMaxDelayMs: 0,
    clientInfo: { ...AGENTS_CLIENT_INFO },
    clientRequests: {
      createMessage: () => Promise.reject(new Error('the conformance client does not sample')),
      listRoots: () => ({ roots: [] }),
    },
    onTools: (_server, listed) => {
      tools.clear();
      for (const tool of listed) tools.set(tool.name, tool);
    },
    onSurfaces: () => undefined,
    logger: new ConsoleLogger({ logLevels: ['error', 'warn'] }),
  });
  try {
    await connection.ensureConnected(BUDGET);
    await run(connection, tools);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(`conformance client: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
