import { before, describe, test } from 'node:test';
import { Agent, run, setTracingDisabled } from '@openai/agents';
import { assistantMessage, functionCall, modelResponder, ScriptedModel } from '@openai/agents/testing';
import { s2spOpenAiAgentsTools } from '@s2sp/agent/openai-agents';
import { WIND_CHART_OBJECTIVE, windChartFramework, windChartMove } from '../support/wind-chart-agent';

describe('@s2sp/agent in the OpenAI Agents SDK: run() with the example servers as processes', () => {
  // The SDK's default trace exporter would post to api.openai.com.
  before(() => setTracingDisabled(true));
  const framework = windChartFramework();

  test('a scripted model charts the wind alerts in CA; no prompt holds a body value or a resource_url', async () => {
    const session = await framework.openSession();
    const prompts: string[] = [];
    const move = modelResponder(({ request }) => {
      prompts.push(JSON.stringify(request));
      const items = Array.isArray(request.input) ? request.input : [];
      const results = items.flatMap((item) =>
        item.type === 'function_call_result' && item.output && typeof item.output === 'object' && 'text' in item.output
          ? [String(item.output.text)]
          : [],
      );
      const next = windChartMove(results);
      return 'answer' in next
        ? [assistantMessage(next.answer)]
        : [functionCall(next.tool, next.args, { callId: `call_${results.length}` })];
    });
    const model = new ScriptedModel([move, move, move]);
    const agent = new Agent({
      name: 'wind-chart',
      instructions: 'You chart weather alerts.',
      model,
      tools: s2spOpenAiAgentsTools(session),
    });
    const result = await run(agent, WIND_CHART_OBJECTIVE, { maxTurns: 6 });
    model.assertComplete();
    framework.assertRun(String(result.finalOutput), prompts, session);
  });
});
