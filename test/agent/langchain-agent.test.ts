import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AIMessage, type BaseMessage, HumanMessage } from '@langchain/core/messages';
import { fakeModel } from '@langchain/core/testing';
import { createAgent } from 'langchain';
import { s2spLangChainTools } from '@s2sp/agent/langchain';
import { WIND_CHART_OBJECTIVE, windChartFramework, windChartMove } from '../support/wind-chart-agent';

describe('@s2sp/agent in LangChain.js: a LangGraph agent (createAgent) with the example servers as processes', () => {
  const framework = windChartFramework();

  test('a scripted model charts the wind alerts in CA; no prompt holds a body value or a resource_url', async () => {
    const session = await framework.openSession();
    const prompts: string[] = [];
    const move = (messages: BaseMessage[]) => {
      prompts.push(JSON.stringify(messages));
      const results = messages
        .filter((message) => message.getType() === 'tool')
        .map((message) => String(message.content));
      const next = windChartMove(results);
      return 'answer' in next
        ? new AIMessage(next.answer)
        : new AIMessage({
            content: '',
            tool_calls: [{ id: `call_${results.length}`, name: next.tool, args: next.args }],
          });
    };
    const model = fakeModel().respond(move).respond(move).respond(move);
    const agent = createAgent({ model, tools: s2spLangChainTools(session) });
    const state = await agent.invoke({ messages: [new HumanMessage(WIND_CHART_OBJECTIVE)] }, { recursionLimit: 10 });
    const final = state.messages.at(-1);
    assert.ok(final, 'the agent answered');
    framework.assertRun(String(final.content), prompts, session);
  });
});
