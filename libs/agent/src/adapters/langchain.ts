import { tool, type StructuredToolInterface } from '@langchain/core/tools';
import type { S2spAgentSession } from '../s2sp-agent-session';

/**
 * The session's tools for LangChain.js and LangGraph.js agents (`createAgent({ tools })`,
 * `ToolNode`). A call the model got wrong, or a tool's failure, comes back as text beginning
 * with "Error:", which the model reads.
 * @public
 */
export function s2spLangChainTools(session: S2spAgentSession): StructuredToolInterface[] {
  return session.tools.map((modelTool) =>
    tool(
      async (input: unknown, config?: { signal?: AbortSignal }) => {
        const output = await session.call(modelTool.name, input, { signal: config?.signal });
        return output.isError ? `Error: ${output.text}` : output.text;
      },
      { name: modelTool.name, description: modelTool.description, schema: modelTool.inputSchema },
    ),
  );
}
