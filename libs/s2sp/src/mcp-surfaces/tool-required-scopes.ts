import type { MessageHandler } from '@nestjs/microservices';
import { MCP_TOOL_METADATA_KEY } from '@rekog/mcp-nest';
import { REQUIRED_SCOPES_METADATA } from '@s2sp/auth/internal';

/** What @rekog/mcp-nest attaches to the handler of each decorated tool. */
interface McpHandlerExtras {
  mcpType?: string;
  mcpMethodKey?: string;
  mcpMethodRef?: Function;
}

/**
 * The scopes each decorated tool requires (its method's @RequireScopes, which S2SP
 * tools' `scopes` option sets), by tool name; tools that require none are left out.
 */
export function toolRequiredScopes(handlers: Iterable<MessageHandler>): Map<string, readonly string[]> {
  const scopesByTool = new Map<string, readonly string[]>();
  for (const handler of handlers) {
    const extras = handler.extras as McpHandlerExtras | undefined;
    if (extras?.mcpType !== 'tool' || !extras.mcpMethodRef) continue;
    const scopes = Reflect.getMetadata(REQUIRED_SCOPES_METADATA, extras.mcpMethodRef) as readonly string[] | undefined;
    if (!scopes || scopes.length === 0) continue;
    const declared = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, extras.mcpMethodRef) as { name?: string } | undefined;
    const name = declared?.name ?? extras.mcpMethodKey;
    if (name) scopesByTool.set(name, scopes);
  }
  return scopesByTool;
}
