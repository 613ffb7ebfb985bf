import { jsonSchema, tool, type Tool } from 'ai';
import type { S2spAgentSession } from '../s2sp-agent-session';

/**
 * The session's tools for the AI SDK's `generateText` / `streamText` (`tools: s2spAiSdkTools(session)`).
 * A call the model got wrong, or a tool's failure, is a tool error the model reads.
 * @public
 */
export function s2spAiSdkTools(session: S2spAgentSession): Record<string, Tool> {
  return Object.fromEntries(
    session.tools.map((modelTool) => [
      modelTool.name,
      tool({
        description: modelTool.description,
        inputSchema: jsonSchema<Record<string, unknown>>(modelTool.inputSchema as Parameters<typeof jsonSchema>[0]),
        execute: async (input: Record<string, unknown>, { abortSignal }: { abortSignal?: AbortSignal }) => {
          const output = await session.call(modelTool.name, input, { signal: abortSignal });
          if (output.isError) throw new Error(output.text);
          return output.text;
        },
      }),
    ]),
  );
}
