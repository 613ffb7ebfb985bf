// The agents' model planner's loop for the agent-loop token bench: agents and gateway in this
// process, the planner's model a scripted endpoint on loopback (OpenAI chat format), the task
// submitted with only an objective; counts what the planner's model was sent and wrote.
import { countTokens } from '@s2sp/protocol';
import { startGateway } from '../../libs/gateway/src/gateway';
import { agentsTestConfig, eventually, startTestAgents } from '../../test/support/agents-stack';
import { testGatewayConfig } from '../../test/support/gateway-harness';
import { gatewayRpcClient } from '../../test/support/gateway-rpc-client';
import { startScriptedModelServer } from '../../test/support/scripted-model-server';
import { ALL_TEST_SCOPES, tokenFromScript } from '../../test/support/tokens';
import { windChartMove } from '../../test/support/wind-chart-agent';

export interface PlannerLoopFigures {
  modelCalls: number;
  promptTokens: number;
  largestPrompt: number;
  writtenTokens: number;
  chart: string;
}

/** The texts of a Chat Completions request the model reads: messages, tool calls, tool results. */
function requestTexts(body: Record<string, any>): string[] {
  return (body.messages as Array<Record<string, any>>).flatMap((message) => [
    ...(typeof message.content === 'string' ? [message.content] : []),
    ...((message.tool_calls ?? []) as Array<{ function: { arguments: string } }>).map(
      (call) => call.function.arguments,
    ),
  ]);
}

export async function measurePlannerLoop(
  resourceMcpUrl: string,
  statsMcpUrl: string,
  tokensOf: (text: string) => number = countTokens,
): Promise<PlannerLoopFigures> {
  const model = await startScriptedModelServer();
  let written = 0;
  model.script = (results) => {
    const move = windChartMove(results);
    const call =
      'answer' in move ? { tool: 'finish', args: { summary: results[1] } } : { tool: move.tool, args: move.args };
    written += tokensOf(JSON.stringify(call.args));
    return call;
  };
  const agents = await startTestAgents(
    agentsTestConfig(
      [
        { id: 'weather', url: resourceMcpUrl },
        { id: 'stats', url: statsMcpUrl },
      ],
      { planner: 'model', model: { api: 'openai-chat', url: model.url, model: 'scripted' } },
    ),
  );
  const gateway = await startGateway(testGatewayConfig(agents.url, ':memory:'));
  try {
    const rpc = gatewayRpcClient(
      gateway.url,
      `Bearer ${await tokenFromScript({ subject: 'bench', scopes: ALL_TEST_SCOPES })}`,
    );
    const { task_id } = (await rpc.request('agent.submitTask', {
      objective: 'Chart the wind alerts in CA.',
      plan: [],
    })) as {
      task_id: string;
    };
    const task = await eventually(
      'the planned task to finish',
      async () => {
        const snapshot = (await rpc.request('agent.getTask', { task_id })) as {
          status: string;
          result?: { summary?: string };
          error?: unknown;
        };
        return ['succeeded', 'failed', 'cancelled'].includes(snapshot.status) ? snapshot : undefined;
      },
      300_000,
      200,
    );
    if (task.status !== 'succeeded')
      throw new Error(`the planned task ended ${task.status}: ${JSON.stringify(task.error)}`);
    const prompts = model.requests.map((request) =>
      requestTexts(request.body).reduce((sum, text) => sum + tokensOf(text), 0),
    );
    return {
      modelCalls: prompts.length,
      promptTokens: prompts.reduce((sum, tokens) => sum + tokens, 0),
      largestPrompt: Math.max(...prompts),
      writtenTokens: written,
      chart: (task.result?.summary ?? '').split('\n').find((line) => line.startsWith('Charted')) ?? '',
    };
  } finally {
    await gateway.close();
    await agents.close();
    await model.close();
  }
}
