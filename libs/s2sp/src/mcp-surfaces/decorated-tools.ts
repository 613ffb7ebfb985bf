import type { MessageHandler } from '@nestjs/microservices';
import { MCP_TOOL_METADATA_KEY } from '@rekog/mcp-nest';
import { REQUIRED_SCOPES_METADATA } from '@s2sp/auth/internal';
import { S2SP_RESOURCE_TOOL } from '../resource/resource-tool.metadata';
import { declaresParamHeaders } from './mcp-param-headers';

/** What @rekog/mcp-nest attaches to the handler of each decorated tool. */
interface McpHandlerExtras {
  mcpType?: string;
  mcpMethodKey?: string;
  mcpMethodRef?: Function;
}

/** What a decorated tool method declares about authorization. */
export interface DecoratedTool {
  name: string;
  /** Its @RequireScopes (which S2SP tools' `scopes` option sets); empty when none. */
  scopes: readonly string[];
  /** Whether it is an S2SP resource tool (it issues resource_urls for the data plane). */
  issuesResources: boolean;
  /** Whether its `_meta` declares parameters its clients mirror into headers (`mcpParamHeaders`). */
  mirrorsParamHeaders: boolean;
}

/** The tools declared with decorators, read from the handlers @rekog/mcp-nest registered. */
export function decoratedTools(handlers: Iterable<MessageHandler>): DecoratedTool[] {
  const tools: DecoratedTool[] = [];
  for (const handler of handlers) {
    const extras = handler.extras as McpHandlerExtras | undefined;
    if (extras?.mcpType !== 'tool' || !extras.mcpMethodRef) continue;
    const method = extras.mcpMethodRef;
    const declared = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, method) as
      { name?: string; _meta?: Record<string, unknown> } | undefined;
    const name = declared?.name ?? extras.mcpMethodKey;
    if (!name) continue;
    tools.push({
      name,
      scopes: (Reflect.getMetadata(REQUIRED_SCOPES_METADATA, method) as readonly string[] | undefined) ?? [],
      issuesResources: Reflect.getMetadata(S2SP_RESOURCE_TOOL, method) !== undefined,
      mirrorsParamHeaders: declaresParamHeaders(declared?._meta),
    });
  }
  return tools;
}
