import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp } from '../support/mcp-client';
import { startStats } from '../support/stack';

let stats: RunningMcpServer;
let client: Client;

before(async () => {
  stats = await startStats([]);
  client = await connectMcp(stats.url, 'stats-prompts-test', { audience: 'stats-server', scopes: ['stats:chart'] });
});

after(async () => {
  await client?.close();
  await stats?.close();
});

test('the stats server offers a chart prompt with completions for group_by, and lists no resources', async () => {
  // Resources are declared by every server, so a client listing them gets empty lists, not "Method not found".
  assert.ok(client.getServerCapabilities()?.resources, 'the resources capability');
  assert.deepEqual((await client.listResources()).resources, [], 'a consumer server lists no resources');
  assert.deepEqual((await client.listResourceTemplates()).resourceTemplates, []);
  const { prompts } = await client.listPrompts();
  const chart = prompts.find((prompt) => prompt.name === 'chart_breakdown');
  assert.deepEqual(
    chart?.arguments?.map((argument) => [argument.name, argument.required]),
    [
      ['source', true],
      ['group_by', false],
    ],
  );
  const rendered = await client.getPrompt({
    name: 'chart_breakdown',
    arguments: { source: 'the weather alerts of CA', group_by: 'severity' },
  });
  assert.match(
    (rendered.messages[0].content as { text: string }).text,
    /abstract_domains including "severity".*draw_chart .*group_by "severity"/s,
  );
  const suggestions = await client.complete({
    ref: { type: 'ref/prompt', name: 'chart_breakdown' },
    argument: { name: 'group_by', value: 'se' },
  });
  assert.deepEqual(suggestions.completion.values, ['severity', 'senderName']);
  await assert.rejects(
    client.getPrompt({ name: 'chart_breakdown', arguments: {} }),
    (error: { code?: number; message: string }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /source: /);
      return true;
    },
  );
});
