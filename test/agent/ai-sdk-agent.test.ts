import { describe, test } from 'node:test';
import { generateText, stepCountIs } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { s2spAiSdkTools } from '@s2sp/agent/ai-sdk';
import { WIND_CHART_OBJECTIVE, windChartFramework, windChartMove } from '../support/wind-chart-agent';

type MockOptions = Parameters<MockLanguageModelV3['doGenerate']>[0];
type MockResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 0, noCache: 0, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 0, text: 0, reasoning: 0 },
};

/** The AI SDK's tool results in a prompt, in order, as the text the model reads. */
function toolResultsOf(options: MockOptions): string[] {
  return options.prompt
    .filter((message) => message.role === 'tool')
    .flatMap((message) => message.content)
    .flatMap((part) => (part.type === 'tool-result' && 'value' in part.output ? [String(part.output.value)] : []));
}

describe('@s2sp/agent in the AI SDK: generateText with the example servers as processes', () => {
  const framework = windChartFramework();

  test('a scripted model charts the wind alerts in CA; no prompt holds a body value or a resource_url', async () => {
    const session = await framework.openSession();
    const prompts: string[] = [];
    const model = new MockLanguageModelV3({
      doGenerate: async (options): Promise<MockResult> => {
        prompts.push(JSON.stringify(options.prompt) + JSON.stringify(options.tools));
        const results = toolResultsOf(options);
        const move = windChartMove(results);
        if ('answer' in move)
          return {
            content: [{ type: 'text', text: move.answer }],
            finishReason: { unified: 'stop', raw: 'stop' },
            usage,
            warnings: [],
          };
        return {
          content: [
            {
              type: 'tool-call',
              toolCallId: `call_${results.length}`,
              toolName: move.tool,
              input: JSON.stringify(move.args),
            },
          ],
          finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
          usage,
          warnings: [],
        };
      },
    });
    const result = await generateText({
      model,
      prompt: WIND_CHART_OBJECTIVE,
      tools: s2spAiSdkTools(session),
      stopWhen: stepCountIs(5),
    });
    framework.assertRun(result.text, prompts, session);
  });
});
