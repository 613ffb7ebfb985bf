import { tool, type Tool } from '@openai/agents';
import type { S2spAgentSession } from '../s2sp-agent-session';

/** The SDK's type of a JSON Schema that is not strict (the servers' schemas are checked by the servers). */
type NonStrictParameters = Extract<Parameters<typeof tool>[0]['parameters'], { additionalProperties: true }>;

/**
 * The session's tools for the OpenAI Agents SDK (`new Agent({ tools: s2spOpenAiAgentsTools(session) })`).
 * Their schemas are the servers' own, so they are not strict. A call the model got wrong, or a
 * tool's failure, comes back as text beginning with "Error:", which the model reads.
 * @public
 */
export function s2spOpenAiAgentsTools(session: S2spAgentSession): Tool[] {
  return session.tools.map((modelTool) =>
    tool({
      name: modelTool.name,
      description: modelTool.description,
      parameters: modelTool.inputSchema as unknown as NonStrictParameters,
      strict: false,
      execute: async (input: unknown) => {
        const output = await session.call(modelTool.name, input);
        return output.isError ? `Error: ${output.text}` : output.text;
      },
    }),
  );
}
