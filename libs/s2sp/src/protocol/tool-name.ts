import type { ExecutionContext } from '@nestjs/common';
import { MCP_TOOL_METADATA_KEY } from '@rekog/mcp-nest';

/** The MCP tool name of the handler being run: its @Tool name, else the method name. */
export function toolNameOf(context: ExecutionContext): string {
  const handler = context.getHandler();
  const metadata: { name?: string } | undefined = Reflect.getMetadata(MCP_TOOL_METADATA_KEY, handler);
  return metadata?.name ?? handler.name;
}
