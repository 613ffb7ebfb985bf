// S2SP tools talking to the user's client while they work: the weather server's resource tool
// reports progress while it gathers rows, and the stats server's consumer tool asks for a
// confirmation (MCP elicitation) before it fetches the rows and draws, on sessions of the 2025
// protocol era (the server sends elicitation/create) and of 2026-07-28 (an InputRequiredResult
// that the client answers and calls again).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult, type Progress } from '@modelcontextprotocol/sdk/types.js';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, jsonOf, textOf, type ToolCallResult } from '../support/mcp-client';
import { fetchResource, startStats, startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';

interface IssuedAlerts {
  resource_url: string;
  abstract: Array<{ _row_id: number; event: string }>;
}

/** What the user answers to each elicitation, and what they were asked. */
class User {
  readonly asked: string[] = [];
  answer: ElicitResult = { action: 'accept', content: { confirm: true } };

  elicit(message: string): ElicitResult {
    this.asked.push(message);
    return this.answer;
  }
}

/** A client of the 2025 protocol era (the v1 SDK) that can be asked for input. */
async function legacyClient(url: string, user: User): Promise<Client> {
  const client = new Client({ name: 'confirming-client', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => user.elicit(request.params.message));
  const authorization = await bearerFor({ audience: 'stats-server' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization } } }),
  );
  return client;
}

/** A client pinned to protocol 2026-07-28 (the v2 SDK), which answers InputRequiredResults itself. */
async function modernClient(url: string, user: User, audience: string): Promise<ClientV2> {
  const client = new ClientV2(
    { name: 'confirming-client-2026', version: '1.0.0' },
    { capabilities: { elicitation: {} }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  client.setRequestHandler('elicitation/create', (request) => user.elicit(request.params.message));
  const authorization = await bearerFor({ audience });
  await client.connect(
    new StreamableHTTPClientTransportV2(new URL(`${url}/mcp`), { requestInit: { headers: { authorization } } }),
  );
  return client;
}

describe('S2SP tools report progress and ask for confirmation over MCP', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  const clients: Array<{ close(): Promise<void> }> = [];

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await stats?.close();
    await weather?.close();
  });

  async function issueAlerts(area = 'CA'): Promise<IssuedAlerts> {
    const agent = await connectMcp(weather.url);
    clients.push(agent);
    return jsonOf<IssuedAlerts>(
      await agent.callTool({ name: 'get_alerts', arguments: { area, abstract_domains: 'event' } }),
    );
  }

  const chartArguments = (alerts: IssuedAlerts, confirm = true) => ({
    abstract_data: JSON.stringify(alerts.abstract),
    resource_url: alerts.resource_url,
    group_by: 'event',
    confirm,
  });

  test('get_alerts reports progress while it gathers the rows, up to every row it answers', async () => {
    const agent = await connectMcp(weather.url);
    clients.push(agent);
    const progress: Progress[] = [];
    const result = await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA' } }, undefined, {
      onprogress: (update) => progress.push(update),
    });
    const rows = jsonOf<unknown[]>(result);
    assert.ok(progress.length >= 2, `progress notifications: ${JSON.stringify(progress)}`);
    assert.ok(
      progress.every((update, i) => i === 0 || update.progress > progress[i - 1].progress),
      'progress only grows',
    );
    assert.deepEqual(progress.at(-1), {
      progress: rows.length,
      total: rows.length,
      message: `Gathered ${rows.length} of ${rows.length} alerts`,
    });
  });

  test('get_alerts reports progress on a 2026-07-28 request too', async () => {
    const agent = await modernClient(weather.url, new User(), 'weather-server');
    clients.push(agent);
    const progress: number[] = [];
    const result = await agent.callTool(
      { name: 'get_alerts', arguments: { area: 'TX' } },
      {
        onprogress: (update) => progress.push(update.progress),
      },
    );
    const rows = JSON.parse((result.content[0] as { text: string }).text) as unknown[];
    assert.ok(progress.length >= 2, `progress: ${JSON.stringify(progress)}`);
    assert.equal(progress.at(-1), rows.length);
  });

  test('2025 era: draw_chart asks first, and charts once the user accepts', async () => {
    const user = new User();
    const client = await legacyClient(stats.url, user);
    clients.push(client);
    const alerts = await issueAlerts();
    const result = (await client.callTool({ name: 'draw_chart', arguments: chartArguments(alerts) })) as ToolCallResult;
    assert.notEqual(result.isError, true, textOf(result));
    assert.deepEqual(user.asked, [`Chart ${alerts.abstract.length} rows by event?`]);
    assert.match(textOf(result), new RegExp(`^Charted ${alerts.abstract.length} rows by event`));
    assert.equal((await fetchResource(alerts.resource_url)).status, 404, 'the chart claimed the resource');
  });

  test('2025 era: when the user declines, nothing is fetched or drawn, and the resource stays unclaimed', async () => {
    const user = new User();
    user.answer = { action: 'decline' };
    const client = await legacyClient(stats.url, user);
    clients.push(client);
    const alerts = await issueAlerts();
    const declined = (await client.callTool({
      name: 'draw_chart',
      arguments: chartArguments(alerts),
    })) as ToolCallResult;
    assert.equal(declined.isError, true);
    assert.equal(textOf(declined), 'Not done: the user did not confirm. No rows were fetched.');
    assert.ok(!(declined.content as Array<{ type: string }>).some((block) => block.type === 'image'));
    // Unclaimed: the same resource_url still charts once the user says yes.
    user.answer = { action: 'accept', content: { confirm: true } };
    const accepted = (await client.callTool({
      name: 'draw_chart',
      arguments: chartArguments(alerts),
    })) as ToolCallResult;
    assert.notEqual(accepted.isError, true, textOf(accepted));
    assert.equal(user.asked.length, 2);
  });

  test('2025 era: a "no" in the form (confirm false) does not act either', async () => {
    const user = new User();
    user.answer = { action: 'accept', content: { confirm: false } };
    const client = await legacyClient(stats.url, user);
    clients.push(client);
    const alerts = await issueAlerts();
    const result = (await client.callTool({ name: 'draw_chart', arguments: chartArguments(alerts) })) as ToolCallResult;
    assert.equal(result.isError, true);
    assert.equal((await fetchResource(alerts.resource_url)).status, 200, 'the resource was not claimed');
  });

  test('2026-07-28: the question is an InputRequiredResult; accepted, the call charts', async () => {
    const user = new User();
    const client = await modernClient(stats.url, user, 'stats-server');
    clients.push(client);
    const alerts = await issueAlerts();
    const result = await client.callTool({ name: 'draw_chart', arguments: chartArguments(alerts) });
    const text = (result.content.find((block) => block.type === 'text') as { text: string }).text;
    assert.notEqual(result.isError, true, text);
    assert.deepEqual(user.asked, [`Chart ${alerts.abstract.length} rows by event?`]);
    assert.match(text, new RegExp(`^Charted ${alerts.abstract.length} rows by event`));
  });

  test('2026-07-28: declined, the consumer does not act', async () => {
    const user = new User();
    user.answer = { action: 'decline' };
    const client = await modernClient(stats.url, user, 'stats-server');
    clients.push(client);
    const alerts = await issueAlerts();
    const result = await client.callTool({ name: 'draw_chart', arguments: chartArguments(alerts) });
    assert.equal(result.isError, true);
    assert.equal(user.asked.length, 1);
    assert.equal((await fetchResource(alerts.resource_url)).status, 200, 'the resource was not claimed');
  });

  test('without confirm the chart is drawn without asking; a client that cannot be asked is refused', async () => {
    const user = new User();
    const client = await legacyClient(stats.url, user);
    clients.push(client);
    const unasked = (await client.callTool({
      name: 'draw_chart',
      arguments: chartArguments(await issueAlerts(), false),
    })) as ToolCallResult;
    assert.notEqual(unasked.isError, true, textOf(unasked));
    assert.deepEqual(user.asked, []);

    const plain = await connectMcp(stats.url, 'plain-client', { audience: 'stats-server' });
    clients.push(plain);
    const alerts = await issueAlerts();
    const refused = (await plain.callTool({ name: 'draw_chart', arguments: chartArguments(alerts) })) as ToolCallResult;
    assert.equal(refused.isError, true);
    assert.match(textOf(refused), /cannot ask \(it declares no elicitation capability\)/);
    assert.equal((await fetchResource(alerts.resource_url)).status, 200, 'the resource was not claimed');
  });
});
