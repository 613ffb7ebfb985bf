// The agents' MCP client (McpServerConnection) on its own, without the agents' Nest app: the
// default breaker, no background reconnection, and handlers for what a test needs.
import { ConsoleLogger } from '@nestjs/common';
import { DEFAULT_AGENTS_CONFIG, DEFAULT_BREAKER_MINIMUM_BUDGET_MS } from '../../libs/agents/src/agents.config';
import { AGENTS_CLIENT_INFO } from '../../libs/agents/src/mcp/mcp-client-info';
import { McpServerConnection, type McpServerConnectionOptions } from '../../libs/agents/src/mcp/mcp-server-connection';
import { DEFAULT_MCP_PROTOCOL } from '../../libs/agents/src/mcp/mcp-protocol-mode';
import { OutputSchemaValidators } from '../../libs/agents/src/mcp/output-schema-validators';

export function standaloneMcpConnection(
  url: string,
  options: Partial<Omit<McpServerConnectionOptions, 'endpoint'>> & { timeoutMs?: number } = {},
): McpServerConnection {
  const { timeoutMs = 20_000, ...overrides } = options;
  return new McpServerConnection({
    endpoint: { id: 'standalone', url },
    breaker: { ...DEFAULT_AGENTS_CONFIG.breaker, minimumBudgetMs: DEFAULT_BREAKER_MINIMUM_BUDGET_MS },
    connectTimeoutMs: timeoutMs,
    callTimeoutMs: timeoutMs,
    reconnectInitialDelayMs: 0,
    reconnectMaxDelayMs: 0,
    protocol: DEFAULT_MCP_PROTOCOL,
    clientInfo: { ...AGENTS_CLIENT_INFO },
    outputValidators: new OutputSchemaValidators(),
    clientRequests: {
      createMessage: () => Promise.reject(new Error('this client does not sample')),
      listRoots: () => ({ roots: [] }),
    },
    onTools: () => undefined,
    onSurfaces: () => undefined,
    logger: new ConsoleLogger({ logLevels: ['error', 'warn'] }),
    ...overrides,
  });
}
