import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema, type CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, type ToolCallResult } from '../support/mcp-client';
import { callModern } from '../support/modern-wire';
import { startStats } from '../support/stack';
import { bearerFor } from '../support/tokens';

const ROWS = JSON.stringify([
  { _row_id: 0, event: 'Wind Advisory' },
  { _row_id: 1, event: 'Wind Advisory' },
  { _row_id: 2, event: 'Red Flag Warning' },
]);

function texts(result: ToolCallResult): string[] {
  return (result.content as Array<{ type: string; text?: string }>)
    .filter((block) => block.type === 'text')
    .map((block) => block.text ?? '');
}

describe("stats draw_chart summarize: the client's model summarises the chart over MCP sampling", () => {
  let stats: RunningMcpServer;
  let sampling: Client;
  let plain: Client;
  const asked: Array<CreateMessageRequest['params']> = [];

  before(async () => {
    stats = await startStats([], { summaryMaxTokens: 64 });
    sampling = new Client({ name: 'sampling-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    sampling.setRequestHandler(CreateMessageRequestSchema, (request) => {
      asked.push(request.params);
      return { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Mostly wind.' } };
    });
    const authorization = await bearerFor({ audience: 'stats-server' });
    await sampling.connect(
      new StreamableHTTPClientTransport(new URL(`${stats.url}/mcp`), { requestInit: { headers: { authorization } } }),
    );
    plain = await connectMcp(stats.url, 'plain-client', { audience: 'stats-server' });
  });

  after(async () => {
    await sampling?.close();
    await plain?.close();
    await stats?.close();
  });

  test('a client that samples: the summary follows the chart text, asked for with STATS_SUMMARY_MAX_TOKENS', async () => {
    const result = await sampling.callTool({ name: 'draw_chart', arguments: { abstract_data: ROWS, summarize: true } });
    assert.notEqual(result.isError, true, texts(result).join(' '));
    assert.deepEqual(texts(result), [
      'Charted 3 rows by event in 2 bars: Wind Advisory 2, Red Flag Warning 1.',
      'Summary: Mostly wind.',
    ]);
    assert.equal(asked.length, 1);
    assert.equal(asked[0].maxTokens, 64);
    const prompt = asked[0].messages[0].content;
    assert.ok(
      !Array.isArray(prompt) &&
        prompt.type === 'text' &&
        prompt.text.endsWith('Charted 3 rows by event in 2 bars: Wind Advisory 2, Red Flag Warning 1.'),
    );
  });

  test('without summarize no sampling request is made', async () => {
    const before = asked.length;
    const result = await sampling.callTool({ name: 'draw_chart', arguments: { abstract_data: ROWS } });
    assert.equal(texts(result).length, 1);
    assert.equal(asked.length, before);
  });

  test('a client that does not declare sampling: a tool error saying so', async () => {
    const result = await plain.callTool({ name: 'draw_chart', arguments: { abstract_data: ROWS, summarize: true } });
    assert.equal(result.isError, true);
    assert.deepEqual(texts(result), [
      'summarize needs a client that declares the MCP sampling capability; this one does not',
    ]);
  });

  test('2026-07-28: the question carries the drawn chart sealed to its caller; only that caller resumes it', async () => {
    const [alice, bob] = await Promise.all(
      ['alice', 'bob'].map((subject) => bearerFor({ audience: 'stats-server', subject })),
    );
    const params = { name: 'draw_chart', arguments: { abstract_data: ROWS, summarize: true } };
    const as = (authorization: string) => ({ capabilities: { sampling: {} }, headers: { authorization } });
    const first = await callModern(stats.url, 'tools/call', params, as(alice));
    assert.equal(first.result?.['resultType'], 'input_required', JSON.stringify(first));
    const asked = (
      first.result?.['inputRequests'] as Record<string, { method: string; params: { maxTokens: number } }>
    )['chart_summary'];
    assert.equal(asked.method, 'sampling/createMessage');
    assert.equal(asked.params.maxTokens, 64);
    const next = {
      ...params,
      inputResponses: {
        chart_summary: { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'Mostly wind.' } },
      },
      requestState: first.result?.['requestState'],
    };
    const stolen = await callModern(stats.url, 'tools/call', next, as(bob));
    assert.equal(stolen.result?.['isError'], true);
    assert.match(JSON.stringify(stolen.result?.['content']), /not issued for this tool and caller/);
    const resumed = await callModern(stats.url, 'tools/call', next, as(alice));
    assert.deepEqual(texts(resumed.result as ToolCallResult), [
      'Charted 3 rows by event in 2 bars: Wind Advisory 2, Red Flag Warning 1.',
      'Summary: Mostly wind.',
    ]);
  });
});
