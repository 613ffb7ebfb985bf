// Which MCP protocol era the agents speak with a server (AgentsMcpConfig.protocol /
// AGENTS_MCP_PROTOCOL): `auto` (the default) asks with server/discover and speaks 2026-07-28
// with a server that does; `legacy` initializes a 2025-11-25 session. Tools are discovered and
// called either way.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { McpProtocolMode } from '../../libs/agents/src/mcp/mcp-protocol-mode';
import type { RegisteredTool } from '../../libs/agents/src/mcp/registered-tool';
import { standaloneMcpConnection } from '../support/standalone-mcp-connection';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';

const BUDGET = { timeoutMs: 10_000 };

describe("the agents' protocol negotiation with an MCP server", () => {
  let server: TestMcpServer;

  before(async () => {
    server = await startTestMcpServer();
  });
  after(() => server?.close());

  for (const [protocol, era] of [
    ['auto', '2026-07-28'],
    ['legacy', '2025-11-25'],
  ] as Array<[McpProtocolMode, string]>) {
    test(`${protocol}: speaks ${era}, discovers the tools and calls one`, async () => {
      let tools: RegisteredTool[] = [];
      const connection = standaloneMcpConnection(server.mcpUrl, {
        protocol,
        onTools: (_server, listed) => {
          tools = listed;
        },
      });
      try {
        await connection.ensureConnected(BUDGET);
        const negotiated = await connection.request(async (client) => client.getNegotiatedProtocolVersion(), BUDGET);
        assert.equal(negotiated, era);
        assert.ok(tools.some((tool) => tool.name === 'echo'));
        const result = await connection.request(
          (client, options) => client.callTool({ name: 'echo', arguments: { text: era } }, options),
          BUDGET,
        );
        assert.deepEqual(result.content, [{ type: 'text', text: `echo: ${era}` }]);
      } finally {
        await connection.close();
      }
    });
  }
});
