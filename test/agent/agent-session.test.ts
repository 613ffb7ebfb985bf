import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import type { RunningMcpServer } from '@s2sp/core';
import { S2spAgentSession, type S2spAgentSessionOptions } from '@s2sp/agent';
import { chartedCounts, countsOf } from '../support/chart-summary';
import { startStats, startWeather } from '../support/stack';
import { mintTestToken } from '../support/tokens';
import { connectExampleServers, windChartTruth, type WindChartTruth } from '../support/wind-chart-agent';

interface ResourceText {
  handle: string;
  total_rows: number;
  abstract_domains: string[];
  body_domains: string[];
  abstract: Array<{ _row_id: number; event: string }>;
}

describe('S2spAgentSession: the agent-side layer over MCP clients', () => {
  let weather: RunningMcpServer | undefined;
  let stats: RunningMcpServer | undefined;
  let clients: Awaited<ReturnType<typeof connectExampleServers>> | undefined;
  let truth: WindChartTruth;
  let alerts: Array<Record<string, unknown>>;

  const open = (options: Partial<S2spAgentSessionOptions> = {}) =>
    S2spAgentSession.open({ servers: { weather: clients!.weather, stats: clients!.stats }, ...options });

  async function alertsAnswer(session: S2spAgentSession, abstractDomains = 'event'): Promise<ResourceText> {
    const output = await session.call('get_alerts', { area: 'CA', abstract_domains: abstractDomains });
    assert.equal(output.isError, false, output.text);
    return JSON.parse(output.text) as ResourceText;
  }

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    clients = await connectExampleServers({ weatherUrl: weather.url, statsUrl: stats.url });
    truth = await windChartTruth(clients.weather);
    const full = await clients.weather.callTool({ name: 'get_alerts', arguments: { area: 'CA' } });
    alerts = JSON.parse((full.content as Array<{ text: string }>)[0].text) as Array<Record<string, unknown>>;
  });
  after(async () => {
    await clients?.close();
    await stats?.close();
    await weather?.close();
  });

  test('shows resource tools without mode, and consumer tools with a handle and a choice of rows instead of data', async () => {
    const session = await open();
    const getAlerts = session.tools.find((tool) => tool.name === 'get_alerts');
    const drawChart = session.tools.find((tool) => tool.name === 'draw_chart');
    assert.equal(getAlerts?.kind, 'resource');
    assert.equal(drawChart?.kind, 'consumer');
    const properties = (schema: Record<string, unknown>) => Object.keys(schema.properties as object).sort();
    assert.deepEqual(properties(getAlerts!.inputSchema), ['abstract_domains', 'area']);
    assert.ok((getAlerts!.inputSchema.required as string[]).includes('abstract_domains'));
    assert.deepEqual(properties(drawChart!.inputSchema), [
      'column_mapping',
      'confirm',
      'group_by',
      'handle',
      'row_ids',
      'summarize',
      'title',
      'where',
    ]);
    assert.deepEqual(drawChart!.inputSchema.required, ['handle']);
  });

  test('a resource answer reaches the model as abstract rows and a handle; the consumer gets the rows it names', async () => {
    const session = await open();
    const answer = await alertsAnswer(session);
    assert.match(answer.handle, /^rs_[0-9a-f]{10}$/);
    assert.equal(answer.total_rows, alerts.length);
    assert.deepEqual(Object.keys(answer.abstract[0]).sort(), ['_row_id', 'event']);
    assert.ok(answer.body_domains.includes('description'));
    const resourceUsage = session.usage.calls[0];
    assert.ok(resourceUsage.keptOutTokens > resourceUsage.contextTokens, JSON.stringify(resourceUsage));

    const chosen = answer.abstract.filter((row) => row._row_id % 2 === 0).map((row) => row._row_id);
    const chart = await session.call('draw_chart', { handle: answer.handle, row_ids: chosen, group_by: 'urgency' });
    assert.equal(chart.isError, false, chart.text);
    assert.deepEqual(
      chartedCounts(chart.text, chosen.length, 'urgency'),
      countsOf(chosen.map((id) => alerts[id].urgency)),
      'the chart counts a body column the consumer fetched server to server',
    );
    assert.match(chart.text, /\[image\/svg\+xml kept for the application as artifact 1\]/);
    assert.equal(session.artifacts[0].block.mimeType, 'image/svg+xml');
    assert.ok(session.usage.calls[1].keptOutTokens > 0, 'the rows and URL the session filled in are counted');
  });

  test('where keeps the rows whose abstract columns match; naming a body column is refused and spends nothing', async () => {
    const session = await open();
    const answer = await alertsAnswer(session);
    const refused = await session.call('draw_chart', { handle: answer.handle, where: { urgency: 'Immediate' } });
    assert.equal(refused.isError, true);
    assert.match(refused.text, /"urgency", which is not an abstract column of handle/);
    const windEvents = [...new Set(answer.abstract.map((row) => row.event).filter((event) => /wind/i.test(event)))];
    const chart = await session.call('draw_chart', { handle: answer.handle, where: { event: windEvents } });
    assert.equal(chart.isError, false, chart.text);
    assert.deepEqual(chartedCounts(chart.text, truth.windRows, 'event'), truth.windCounts);
  });

  test('a handle serves once, only in its session, and an unknown one is a tool error for the model', async () => {
    const session = await open();
    const other = await open();
    const answer = await alertsAnswer(session);
    const fromOtherSession = await other.call('draw_chart', { handle: answer.handle });
    assert.equal(fromOtherSession.isError, true);
    assert.match(fromOtherSession.text, /^Unknown handle "rs_/);
    assert.equal((await session.call('draw_chart', { handle: answer.handle })).isError, false);
    const again = await session.call('draw_chart', { handle: answer.handle });
    assert.equal(again.isError, true);
    assert.match(again.text, /already handed to a consumer tool, and a handle serves once: call get_alerts again/);
    const unknownRows = await session.call('draw_chart', {
      handle: (await alertsAnswer(session)).handle,
      row_ids: [0, 99999],
    });
    assert.match(unknownRows.text, /has no rows with _row_id 99999/);
  });

  test('handles expire, and beyond maxHandles the oldest is dropped', async () => {
    const shortLived = await open({ handleTtlMs: 1 });
    const expiring = await alertsAnswer(shortLived);
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.match(
      (await shortLived.call('draw_chart', { handle: expiring.handle })).text,
      /expired \(handles last 0 s\)/,
    );

    const small = await open({ maxHandles: 1 });
    const first = await alertsAnswer(small);
    const second = await alertsAnswer(small);
    assert.match(
      (await small.call('draw_chart', { handle: first.handle })).text,
      /dropped: a conversation keeps at most 1 handles/,
    );
    assert.equal((await small.call('draw_chart', { handle: second.handle })).isError, false);
  });

  test('sync mode: the body comes inline, stays in the session, and the consumer gets exactly the chosen rows', async () => {
    const session = await open({ mode: 'sync' });
    const output = await session.call('get_alerts', { area: 'CA', abstract_domains: 'event', mode: 'async' });
    for (const value of truth.bodyValues) assert.ok(!output.text.includes(value), `the model was shown ${value}`);
    const answer = JSON.parse(output.text) as ResourceText;
    const chosen = [answer.abstract[0]._row_id, answer.abstract[answer.abstract.length - 1]._row_id];
    const chart = await session.call('draw_chart', { handle: answer.handle, row_ids: chosen, group_by: 'severity' });
    assert.equal(chart.isError, false, chart.text);
    assert.deepEqual(chartedCounts(chart.text, 2, 'severity'), countsOf(chosen.map((id) => alerts[id].severity)));
  });

  test('mistakes are tool errors the model reads: an unknown tool, missing abstract_domains, arguments that are not an object', async () => {
    const session = await open();
    const unknown = await session.call('get_forecast', {});
    assert.deepEqual(
      [unknown.isError, /^Unknown tool "get_forecast"\. Tools: .*get_alerts/.test(unknown.text)],
      [true, true],
    );
    const noDomains = await session.call('get_alerts', { area: 'CA' });
    assert.deepEqual([noDomains.isError, /needs abstract_domains/.test(noDomains.text)], [true, true]);
    const notObject = await session.call('get_alerts', ['CA']);
    assert.deepEqual([notObject.isError, notObject.text], [true, 'The arguments of get_alerts must be a JSON object.']);
    const serverError = await session.call('get_alerts', { area: 'ZZ', abstract_domains: 'event' });
    assert.equal(serverError.isError, true);
  });

  test('works over the v2 MCP client (@modelcontextprotocol/client) as over v1', async () => {
    const connect = async (url: string, audience: string, scopes: string[]) => {
      const client = new ClientV2({ name: 'agent-session-v2', version: '1.0.0' });
      const authorization = `Bearer ${await mintTestToken({ audience, scopes })}`;
      await client.connect(
        new StreamableHTTPClientTransportV2(new URL(`${url}/mcp`), { requestInit: { headers: { authorization } } }),
      );
      return client;
    };
    const weatherV2 = await connect(weather!.url, 'weather-server', ['weather:read']);
    const statsV2 = await connect(stats!.url, 'stats-server', ['stats:chart', 's2sp:data:read', 'weather:read']);
    try {
      const session = await S2spAgentSession.open({ servers: { weather: weatherV2, stats: statsV2 } });
      const answer = await alertsAnswer(session);
      const chart = await session.call('draw_chart', { handle: answer.handle, group_by: 'event' });
      assert.equal(chart.isError, false, chart.text);
      assert.deepEqual(chartedCounts(chart.text, alerts.length, 'event'), countsOf(alerts.map((row) => row.event)));
    } finally {
      await Promise.all([weatherV2.close(), statsV2.close()]);
    }
  });
});
