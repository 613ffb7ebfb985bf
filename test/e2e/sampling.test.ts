import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';
import type { RunningMcpServer } from '@s2sp/core';
import type { S2spDatabase } from '@s2sp/database';
import { fromStruct, toStruct } from '@s2sp/contracts';
import { AGENTS_DATABASE } from '../../libs/agents/src/agents.tokens';
import type { ModelProvider, SamplingRequestContext } from '../../libs/agents/src/sampling/model-provider';
import { DEFAULT_SAMPLING_CONFIG } from '../../libs/agents/src/sampling/sampling-config';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, unary, type AgentsClients, type Message } from '../support/agents-grpc-client';
import { consumerStep, filterStep, resourceStep, submitTask, waitForTaskEnd } from '../support/agent-tasks';
import { flushAudit } from '../support/audit';
import { startStats, startWeather } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';

/** A model that answers every request with a fixed text derived from the prompt's last line, and remembers what it was asked. */
class FakeModel implements ModelProvider {
  readonly requests: Array<{ params: CreateMessageRequest['params']; serverId: string; taskId?: string }> = [];

  async createMessage(
    params: CreateMessageRequest['params'],
    context: SamplingRequestContext,
  ): Promise<CreateMessageResult> {
    this.requests.push({ params, serverId: context.serverId, taskId: context.taskId });
    const prompt = params.messages
      .flatMap((message) => [message.content].flat())
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('\n');
    return {
      role: 'assistant',
      model: 'fake-model',
      stopReason: 'endTurn',
      content: { type: 'text', text: `fake summary of "${prompt.split('\n').at(-1)}"` },
    };
  }
}

const summarizedChart = (stepId: string, server = 'stats') =>
  consumerStep(stepId, 'windy', { server, args: { group_by: 'urgency', summarize: true } });

/** Alerts (SYNC: several charts may read them) → wind and fire → the given charts. */
function chartPlan(...charts: Message[]): Message {
  return {
    objective: { natural_language: 'Chart and summarise the wind and fire alerts of California' },
    plan: [resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }), filterStep('windy', 'alerts'), ...charts],
  };
}

function textsOf(task: Message): string[] {
  const result = fromStruct(task.result) as { output: { content: Array<{ type: string; text?: string }> } };
  return result.output.content.filter((block) => block.type === 'text').map((block) => block.text ?? '');
}

describe('sampling: MCP servers ask the agents for completions, under policy', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let unconfigured: RunningAgents;
  let clients: AgentsClients;
  let unconfiguredClients: AgentsClients;
  const model = new FakeModel();

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    testkit = await startTestMcpServer();
    const servers = [
      { id: 'weather', url: `${weather.url}/mcp` },
      { id: 'stats', url: `${stats.url}/mcp` },
      // The same stats server under an id the policy does not list.
      { id: 'stats-unlisted', url: `${stats.url}/mcp`, audience: 'stats-server' },
      { id: 'testkit', url: testkit.mcpUrl },
    ];
    agents = await startTestAgents(
      agentsTestConfig(servers, {
        // The stats server asks for 256 tokens per summary: two fit in a task, a third does not.
        sampling: {
          ...DEFAULT_SAMPLING_CONFIG,
          allowedServers: ['stats'],
          maxTokensPerRequest: 256,
          maxTokensPerTask: 600,
          requestsPerMinute: 100,
        },
        roots: [
          { server: '*', uri: 'file:///srv/shared' },
          { server: 'testkit', uri: 'file:///srv/testkit', name: 'testkit data' },
          { server: 'stats', uri: 'file:///srv/charts' },
        ],
      }),
      { modelProvider: model },
    );
    unconfigured = await startTestAgents(
      agentsTestConfig(servers.slice(0, 2), { sampling: { ...DEFAULT_SAMPLING_CONFIG, allowedServers: ['stats'] } }),
    );
    clients = connectAgents(agents.url);
    unconfiguredClients = connectAgents(unconfigured.url);
  });

  after(async () => {
    clients?.close();
    unconfiguredClients?.close();
    await unconfigured?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
  });

  const samplingAudit = async () => {
    await flushAudit(agents.app);
    return agents.app
      .get<S2spDatabase>(AGENTS_DATABASE)
      .client.auditEvent.findMany({ where: { operation: 'sampling/createMessage' }, orderBy: { time: 'asc' } });
  };

  test("draw_chart summarize: the stats server samples the agents' model, and the summary is in the tool result", async () => {
    const accepted = await submitTask(clients.agents, chartPlan(summarizedChart('chart')));
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_SUCCEEDED', JSON.stringify(task.error));

    const texts = textsOf(task);
    assert.match(texts[0], /^Charted 4 rows by urgency/);
    assert.equal(
      texts[1],
      `Summary: fake summary of "${texts[0]}"`,
      'the model saw the chart and its answer came back in the result',
    );

    const request = model.requests.at(-1);
    assert.equal(request?.serverId, 'stats');
    assert.equal(request?.taskId, accepted.task_id, 'the request is charged to the task whose tool call made it');
    assert.equal(request?.params.maxTokens, 256);

    const allowed = (await samplingAudit()).filter((event) => event.decision === 'allow');
    assert.equal(allowed.length, 1);
    assert.equal(allowed[0].subject, 'mcp-server:stats');
    assert.equal(allowed[0].protocol, 'mcp');
    assert.match(
      String((allowed[0].approval as { reason?: string }).reason),
      new RegExp(`task ${accepted.task_id}; maxTokens 256`),
    );
  });

  test('a server the policy does not list is refused with a clear error, the model is not asked, the refusal is audited', async () => {
    const asked = model.requests.length;
    const accepted = await submitTask(clients.agents, chartPlan(summarizedChart('chart', 'stats-unlisted')));
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_FAILED');
    assert.match(
      JSON.stringify(task.error),
      /sampling refused: MCP server \\"stats-unlisted\\" may not request sampling/,
    );
    assert.equal(model.requests.length, asked);

    const denied = (await samplingAudit()).filter(
      (event) => event.decision === 'deny' && event.subject === 'mcp-server:stats-unlisted',
    );
    assert.equal(denied.length, 1);
    assert.equal(denied[0].outcome, 'approval-denied');
  });

  test('the tokens of one task are bounded: the third 256-token summary of a task allowed 600 is refused', async () => {
    const asked = model.requests.length;
    const accepted = await submitTask(
      clients.agents,
      chartPlan(summarizedChart('first'), summarizedChart('second'), summarizedChart('third')),
    );
    const task = await waitForTaskEnd(clients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_FAILED');
    assert.match(
      JSON.stringify(task.error),
      new RegExp(`task ${accepted.task_id} has used 512 of its 600 sampling tokens; 256 more were asked for`),
    );
    assert.equal(model.requests.length, asked + 2);
  });

  test('without a MODEL_PROVIDER the agents refuse sampling, saying what is missing', async () => {
    const accepted = await submitTask(unconfiguredClients.agents, chartPlan(summarizedChart('chart')));
    const task = await waitForTaskEnd(unconfiguredClients.agents, accepted.task_id);
    assert.equal(task.status, 'TASK_STATUS_FAILED');
    assert.match(JSON.stringify(task.error), /sampling is not configured on these agents: provide MODEL_PROVIDER/);
  });

  test('roots/list answers the roots configured for the asking server (and those for every server)', async () => {
    const answer = await unary(clients.tools, 'InvokeTool', {
      tool_name: 'list_roots',
      server: 'testkit',
      input_params: toStruct({}),
    });
    const [block] = fromStruct(answer.output).content as Array<{ text: string }>;
    assert.deepEqual(JSON.parse(block.text), [
      { uri: 'file:///srv/shared' },
      { uri: 'file:///srv/testkit', name: 'testkit data' },
    ]);
  });
});
