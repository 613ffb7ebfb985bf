import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

import { bearerFor, type TestTokenRequest } from './tokens';

/**
 * The official MCP TypeScript SDK client (v1 line), connected over Streamable
 * HTTP with the test caller's bearer token for `auth.audience` (default the
 * weather server; `auth: null` sends none).
 */
export async function connectMcp(
  baseUrl: string,
  name = 'e2e-test',
  auth: Partial<TestTokenRequest> | null = {},
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const authorization = auth === null ? undefined : await bearerFor({ audience: 'weather-server', ...auth });
  const requestInit = authorization ? { headers: { authorization } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), { requestInit }));
  return client;
}

export type ToolCallResult = Awaited<ReturnType<Client['callTool']>>;

/** The text of the first text content block. */
export function textOf(result: ToolCallResult): string {
  const content = result.content as Array<{ type: string; text?: string }>;
  const block = content.find((item) => item.type === 'text');
  if (block?.text === undefined) throw new Error('tool result has no text content');
  return block.text;
}

export function jsonOf<T = Record<string, any>>(result: ToolCallResult): T {
  if (result.isError) throw new Error(`tool error: ${textOf(result)}`);
  return JSON.parse(textOf(result)) as T;
}
