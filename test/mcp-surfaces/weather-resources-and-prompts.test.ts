import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { AlertCatalog } from '../../apps/weather-server/src/alerts/alert-catalog';
import { eventually } from '../support/agents-stack';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { startWeather } from '../support/stack';

let weather: RunningMcpServer;

function textOf(contents: object): string {
  assert.ok('text' in contents && typeof contents.text === 'string', 'a text resource');
  return contents.text;
}
let client: Client;

before(async () => {
  // A small page, so that the 52 areas take several pages (read when the server starts).
  weather = await startWeather({ mcpLimits: { listPageSize: 20 } });
  client = await connectMcp(weather.url, 'resources-test', { scopes: ['weather:read'] });
});

after(async () => {
  await client?.close();
  await weather?.close();
});

test('the weather server declares resources with subscriptions, prompts and completions', () => {
  const capabilities = client.getServerCapabilities();
  assert.equal(capabilities?.resources?.subscribe, true);
  assert.equal(capabilities?.resources?.listChanged, true);
  assert.ok(capabilities?.prompts, 'prompts capability');
  assert.ok(capabilities?.completions, 'completions capability');
});

test('resources/templates/list names the per-area template', async () => {
  const { resourceTemplates } = await client.listResourceTemplates();
  const alerts = resourceTemplates.find((template) => template.uriTemplate === 'weather://alerts/{area}');
  assert.ok(alerts, JSON.stringify(resourceTemplates));
  assert.equal(alerts.mimeType, 'application/json');
});

test('resources/list pages through one resource per area with the configured page size', async () => {
  const uris: string[] = [];
  const pageSizes: number[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listResources(cursor === undefined ? {} : { cursor });
    pageSizes.push(page.resources.length);
    uris.push(...page.resources.map((resource) => resource.uri));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  assert.deepEqual(pageSizes, [20, 20, 12]);
  assert.equal(new Set(uris).size, 52);
  assert.ok(uris.includes('weather://alerts/CA'));
  const first = await client.listResources();
  const ca = first.resources.find((resource) => resource.uri === 'weather://alerts/CA');
  assert.match(ca?.description ?? '', /^14 active National Weather Service alerts for CA/);
});

test('a cursor the server did not issue is refused as invalid params', async () => {
  await assert.rejects(
    client.listResources({ cursor: 'bm90LWEtbnVtYmVy' }),
    (error: { code?: number; message: string }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Invalid cursor/);
      return true;
    },
  );
});

test('resources/read returns every field of an area\'s alerts; an unknown area is "resource not found"', async () => {
  // The SDK's ResourceNotFoundError: invalid params with the URI in its data, as current MCP specifies.
  const { contents } = await client.readResource({ uri: 'weather://alerts/CA' });
  assert.equal(contents.length, 1);
  assert.equal(contents[0].mimeType, 'application/json');
  const alerts = JSON.parse(textOf(contents[0])) as Array<Record<string, unknown>>;
  assert.equal(alerts.length, 14);
  assert.ok(Object.keys(alerts[0]).length >= 30, 'every field, not the abstract columns only');
  await assert.rejects(
    client.readResource({ uri: 'weather://alerts/ZZ' }),
    (error: { code?: number; message: string }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /Unknown area "ZZ"/);
      return true;
    },
  );
});

test('reading a resource needs the weather:read scope, as get_alerts does', async () => {
  const unscoped = await connectMcp(weather.url, 'resources-test-unscoped', { scopes: ['stats:chart'] });
  try {
    await assert.rejects(unscoped.readResource({ uri: 'weather://alerts/CA' }), (error: Error) => {
      assert.match(error.message, /weather:read/);
      return true;
    });
  } finally {
    await unscoped.close();
  }
});

test("a subscriber is told when its area's alerts change, and only about the areas it subscribed to", async () => {
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
    updated.push(notification.params.uri);
  });
  await client.subscribeResource({ uri: 'weather://alerts/CA' });
  const before = textOf((await client.readResource({ uri: 'weather://alerts/CA' })).contents[0]);
  const changed = weather.app.get(AlertCatalog).advance();
  assert.ok(changed.includes('CA') && changed.length > 1, `areas changed: ${changed.join(', ')}`);
  await eventually('the update notification', () => updated.length > 0);
  assert.deepEqual([...new Set(updated)], ['weather://alerts/CA']);
  assert.notEqual(
    textOf((await client.readResource({ uri: 'weather://alerts/CA' })).contents[0]),
    before,
    'the resource reads the new alerts',
  );

  await client.unsubscribeResource({ uri: 'weather://alerts/CA' });
  updated.length = 0;
  weather.app.get(AlertCatalog).advance();
  const { tools } = await client.listTools(); // a round trip after the advance: a notification would have arrived first
  assert.ok(tools.length > 0);
  assert.deepEqual(updated, [], 'no update after unsubscribing');
});

test('the triage prompt is listed with its arguments and renders for an area', async () => {
  const { prompts } = await client.listPrompts();
  const triage = prompts.find((prompt) => prompt.name === 'triage_alerts');
  assert.ok(triage, JSON.stringify(prompts));
  assert.deepEqual(
    triage.arguments?.map((argument) => [argument.name, argument.required]),
    [
      ['area', true],
      ['focus', false],
    ],
  );
  const rendered = await client.getPrompt({ name: 'triage_alerts', arguments: { area: 'ca', focus: 'urgency' } });
  const text = (rendered.messages[0].content as { text: string }).text;
  assert.match(text, /area "CA" and abstract_domains "event,urgency"/);
});

test('the triage prompt refuses arguments it cannot use, naming the problem', async () => {
  await assert.rejects(
    client.getPrompt({ name: 'triage_alerts', arguments: { area: 'California' } }),
    (error: { code?: number; message: string }) => {
      assert.equal(error.code, -32602);
      assert.match(error.message, /area: a two-letter US state code/);
      return true;
    },
  );
});

test('completion/complete suggests areas for the prompt and the template, and focus columns', async () => {
  const forPrompt = await client.complete({
    ref: { type: 'ref/prompt', name: 'triage_alerts' },
    argument: { name: 'area', value: 'c' },
  });
  assert.deepEqual(forPrompt.completion.values, ['CA', 'CO', 'CT']);
  const forTemplate = await client.complete({
    ref: { type: 'ref/resource', uri: 'weather://alerts/{area}' },
    argument: { name: 'area', value: 'N' },
  });
  assert.deepEqual(forTemplate.completion.values, ['NC', 'ND', 'NE', 'NH', 'NJ', 'NM', 'NV', 'NY']);
  const focus = await client.complete({
    ref: { type: 'ref/prompt', name: 'triage_alerts' },
    argument: { name: 'focus', value: 's' },
  });
  assert.deepEqual(focus.completion.values, ['severity', 'status']);
  const unknown = await client.complete({
    ref: { type: 'ref/prompt', name: 'no_such_prompt' },
    argument: { name: 'area', value: '' },
  });
  assert.deepEqual(unknown.completion.values, []);
});

test('an async answer carries a resource_link block describing the body after its JSON text', async () => {
  const result = await client.callTool({
    name: 'get_alerts',
    arguments: { area: 'CA', abstract_domains: 'event,severity' },
  });
  const answer = jsonOf(result);
  const content = result.content as Array<Record<string, unknown>>;
  assert.equal(content[0].type, 'text', 'the JSON text stays first, where the reference consumers read it');
  const link = content.find((block) => block.type === 'resource_link');
  assert.ok(link, JSON.stringify(content));
  assert.equal(link.uri, answer.resource_url);
  assert.equal(link.mimeType, 'application/json');
  assert.match(
    String(link.description),
    new RegExp(`^${answer.total_rows} rows × ${answer.body_domains.length} body columns`),
  );
  assert.deepEqual(link._meta, {
    's2sp/total_rows': answer.total_rows,
    's2sp/body_columns': answer.body_domains.length,
  });
});
