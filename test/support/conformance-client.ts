// The agents' MCP client (McpServerConnection, the same code that reaches MCP servers in a
// task) as a program the official conformance suite drives: `conformance client --command
// "node conformance-client.js"` appends the scenario server's URL and names the scenario in
// MCP_CONFORMANCE_SCENARIO (and passes tool calls in MCP_CONFORMANCE_CONTEXT for some). Each
// scenario gets what an agent does with a server: connect with the agents' default protocol
// negotiation, discover the tools, resources and prompts, call what the scenario expects.
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { McpServerConnection } from '../../libs/agents/src/mcp/mcp-server-connection';
import type { RegisteredTool } from '../../libs/agents/src/mcp/registered-tool';
import type { ServerSurfaces } from '../../libs/agents/src/mcp/server-surfaces';
import { McpRequestRejectedError } from '../../libs/agents/src/mcp/tool-call-errors';
import { standaloneMcpConnection } from './standalone-mcp-connection';

const BUDGET = { timeoutMs: 20_000 };

interface Discovered {
  tools: Map<string, RegisteredTool>;
  surfaces: ServerSurfaces;
}

/** What the client does in each scenario, once connected (the connection itself lists the tools). */
const SCENARIOS: Record<string, (connection: McpServerConnection, discovered: Discovered) => Promise<void>> = {
  initialize: async () => undefined,
  // Every request's _meta and MCP-Protocol-Version header; the server first refuses the version (-32022).
  'request-metadata': async () => undefined,
  // The client must not fetch a network $ref of a listed schema.
  'json-schema-ref-no-deref': async () => undefined,
  tools_call: (connection) => callTool(connection, 'add_numbers', { a: 2, b: 3 }),
  // The server closes the call's stream and answers on the notification stream the client reopens.
  'sse-retry': (connection) => callTool(connection, 'test_reconnection', {}),
  // Mcp-Method / Mcp-Name on every request: each listed tool called, resource read, prompt fetched.
  'http-standard-headers': async (connection, { tools, surfaces }) => {
    for (const name of tools.keys()) await callTool(connection, name, {});
    for (const { uri } of surfaces.resources)
      await connection.request((client, options) => client.readResource({ uri }, options), BUDGET);
    for (const { name } of surfaces.prompts)
      await connection.request((client, options) => client.getPrompt({ name }, options), BUDGET);
  },
  // Mcp-Param-* headers mirrored from the tools' x-mcp-header declarations.
  'http-custom-headers': (connection) => callContextTools(connection),
  // Tools with invalid x-mcp-header declarations are left out of discovery; the valid one is called.
  'http-invalid-tool-headers': async (connection, { tools }) => {
    for (const name of tools.keys()) await callTool(connection, name, {});
  },
  // input_required rounds: the requestState echoed byte for byte, never carried into another call.
  'sep-2322-client-request-state': async (connection) => {
    for (const name of ['test_mrtr_echo_state', 'test_mrtr_no_state', 'test_mrtr_unrelated'])
      await callTool(connection, name, {});
    // Its reply omits resultType on the 2026-07-28 wire, where the released specification requires
    // it (the absent-means-complete rule covers earlier revisions only): the client must refuse it,
    // and must not retry it. docs/conformance.md notes the suite's defect.
    const refused = await callTool(connection, 'test_mrtr_no_result_type', {}).then(
      () => undefined,
      (error: unknown) => error,
    );
    if (!(refused instanceof McpRequestRejectedError) || !/not valid MCP/.test(refused.message))
      throw new Error(
        `test_mrtr_no_result_type: expected the reply without resultType to be refused, got ${String(refused)}`,
      );
  },
  'json-schema-2020-12-preservation': async (connection, { tools }) => {
    // The schema as the agents hold it (what a planner sees and validates arguments against), sent back verbatim.
    const focal = tools.get('json_schema_2020_12_tool');
    const echo = [...tools.keys()].find((name) => name !== 'json_schema_2020_12_tool');
    if (!focal || !echo) throw new Error(`the scenario server listed ${[...tools.keys()].join(', ')}`);
    await callTool(connection, echo, { schema: focal.inputSchema });
  },
};

async function callTool(connection: McpServerConnection, name: string, args: Record<string, unknown>): Promise<void> {
  const result = await connection.request(
    (client, options) => client.callTool({ name, arguments: args }, options),
    BUDGET,
  );
  if (result.isError) throw new Error(`${name} answered an error: ${JSON.stringify(result.content)}`);
}

/** The tool calls the suite passes in MCP_CONFORMANCE_CONTEXT (`{ toolCalls: [{ name, arguments }] }`). */
async function callContextTools(connection: McpServerConnection): Promise<void> {
  const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as {
    toolCalls?: Array<{ name: string; arguments?: Record<string, unknown> }>;
  };
  if (!context.toolCalls?.length) throw new Error('the scenario passed no toolCalls in MCP_CONFORMANCE_CONTEXT');
  for (const call of context.toolCalls) await callTool(connection, call.name, call.arguments ?? {});
}

/**
 * A user who answers yes to every yes/no question. The agents run without a user and declare
 * no elicitation; the harness answers so the suite can check what the client does around the
 * answer (request state, request ids).
 */
async function answerYes(_server: string, params: ElicitRequestParams): Promise<ElicitResult> {
  const properties = 'requestedSchema' in params ? params.requestedSchema.properties : {};
  const content: Record<string, boolean> = {};
  for (const [field, schema] of Object.entries(properties))
    if ((schema as { type?: string }).type === 'boolean') content[field] = true;
  return { action: 'accept', content };
}

async function main(): Promise<void> {
  const [url] = process.argv.slice(2);
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const run = SCENARIOS[scenario];
  if (!url || !run)
    throw new Error(
      `usage: conformance-client <server url>, with MCP_CONFORMANCE_SCENARIO one of ${Object.keys(SCENARIOS).join(', ')}`,
    );
  const discovered: Discovered = {
    tools: new Map<string, RegisteredTool>(),
    surfaces: { resources: [], resourceTemplates: [], prompts: [] },
  };
  const connection = standaloneMcpConnection(url, {
    timeoutMs: BUDGET.timeoutMs,
    clientRequests: {
      createMessage: () => Promise.reject(new Error('the conformance client does not sample')),
      listRoots: () => ({ roots: [] }),
      elicit: answerYes,
    },
    onTools: (_server, listed) => {
      discovered.tools.clear();
      for (const tool of listed) discovered.tools.set(tool.name, tool);
    },
    onSurfaces: (_server, surfaces) => {
      discovered.surfaces = surfaces;
    },
  });
  try {
    await connection.ensureConnected(BUDGET);
    await run(connection, discovered);
  } finally {
    await connection.close();
  }
}

main().catch((error: unknown) => {
  console.error(`conformance client: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
