import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { z } from 'zod';

/**
 * A prompt's arguments checked against its schema (@rekog/mcp-nest passes them
 * to @Prompt handlers unchecked): anything else is refused as invalid params,
 * naming each problem.
 * @beta
 */
export function promptArguments<T extends z.ZodType>(schema: T, args: unknown, promptName: string): z.infer<T> {
  const parsed = schema.safeParse(args ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'arguments'}: ${issue.message}`)
    .join('; ');
  throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for prompt ${promptName}: ${problems}`);
}
