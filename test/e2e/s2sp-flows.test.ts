import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { RESOURCE_STORE, type ResourceStore, type RunningMcpServer } from '@s2sp/core';
import { hashResourceToken } from '../../libs/s2sp/src/protocol/resource-token';
import { connectMcp, jsonOf, textOf } from '../support/mcp-client';
import { fetchResource, startStats, startWeather } from '../support/stack';

const RESOURCE_URL = /^http:\/\/127\.0\.0\.1:\d+\/s2sp\/data\/[A-Za-z0-9_-]{43}$/;

describe('S2SP flows through the official MCP client', () => {
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let agentToWeather: Client;
  let agentToStats: Client;

  before(async () => {
    weather = await startWeather();
    stats = await startStats([weather.url]);
    agentToWeather = await connectMcp(weather.url);
    agentToStats = await connectMcp(stats.url, 'e2e-test', { audience: 'stats-server' });
  });

  after(async () => {
    await agentToWeather?.close();
    await agentToStats?.close();
    await stats?.close();
    await weather?.close();
  });

  const tokenOf = (url: string) => url.slice(url.lastIndexOf('/') + 1);
  const store = () => weather.app.get<ResourceStore>(RESOURCE_STORE);

  test('tools advertise the S2SP parameters and an output schema', async () => {
    const { tools } = await agentToWeather.listTools();
    const getAlerts = tools.find((tool) => tool.name === 'get_alerts');
    assert.ok(getAlerts);
    assert.deepEqual(Object.keys(getAlerts.inputSchema.properties ?? {}).sort(), [
      'abstract_domains',
      'abstract_format',
      'area',
      'mode',
    ]);
    assert.deepEqual(getAlerts.inputSchema.required, ['area']);
    assert.match(getAlerts.description ?? '', /abstract_domains/);
    assert.equal(getAlerts.outputSchema?.type, 'object');

    const { tools: statsTools } = await agentToStats.listTools();
    const drawChart = statsTools.find((tool) => tool.name === 'draw_chart');
    assert.ok(drawChart);
    for (const name of ['abstract_data', 'resource_url', 'body_data', 'column_mapping']) {
      assert.equal((drawChart.inputSchema.properties as Record<string, { type: string }>)[name]?.type, 'string', name);
    }
  });

  test('without abstract_domains the tool is plain MCP: all rows, all columns, no _row_id, nothing cached', async () => {
    const result = await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'CA' } });
    const rows = jsonOf<Array<Record<string, unknown>>>(result);
    assert.ok(rows.length >= 10);
    assert.ok(Object.keys(rows[0]).length >= 30);
    assert.ok(rows.every((row) => !('_row_id' in row)));
    assert.deepEqual((result.structuredContent as { result: unknown[] }).result, rows);
    assert.ok(!('resource_url' in (result.structuredContent as object)));
  });

  test('async flow: abstract to the agent, body fetched server to server by the consumer', async () => {
    const result = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event,severity' },
    });
    const answer = jsonOf(result);
    assert.deepEqual(answer.abstract_domains, ['event', 'severity']);
    assert.equal(answer.total_rows, answer.abstract.length);
    assert.equal(answer.columns.length, answer.abstract_domains.length + answer.body_domains.length);
    assert.ok(answer.body_domains.includes('description'));
    assert.equal(answer.body, undefined);
    assert.match(answer.resource_url, RESOURCE_URL);
    answer.abstract.forEach((row: Record<string, unknown>, index: number) => {
      assert.deepEqual(Object.keys(row), ['_row_id', 'event', 'severity']);
      assert.equal(row._row_id, index);
    });
    assert.deepEqual(result.structuredContent, answer);

    const chosen = answer.abstract.filter((_: unknown, index: number) => index % 2 === 0);
    const before = await store().findLive(hashResourceToken(tokenOf(answer.resource_url)));
    assert.ok(before, 'the body is cached until the consumer fetches it');

    const chart = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: JSON.stringify(chosen), resource_url: answer.resource_url },
    });
    assert.equal(chart.isError, undefined, textOf(chart));
    const summary = textOf(chart);
    assert.match(summary, new RegExp(`^Charted ${chosen.length} rows by event`));
    const image = (chart.content as Array<{ type: string; data?: string; mimeType?: string }>).find(
      (item) => item.type === 'image',
    );
    assert.equal(image?.mimeType, 'image/svg+xml');
    assert.match(Buffer.from(image.data!, 'base64').toString('utf8'), /^<svg[\s\S]*<\/svg>\s*$/);

    const after = await store().findLive(hashResourceToken(tokenOf(answer.resource_url)));
    assert.equal(after, null, 'the consumer fetched (and so consumed) the resource server to server');
    assert.equal((await fetchResource(answer.resource_url)).status, 404, 'single use');
  });

  test('the consumer merges fetched body columns by _row_id before the method runs', async () => {
    const answer = jsonOf(
      await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'TX', abstract_domains: '["event"]' } }),
    );
    const chart = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: {
        abstract_data: JSON.stringify(answer.abstract),
        resource_url: answer.resource_url,
        group_by: 'severity',
      },
    });
    assert.equal(chart.isError, undefined, textOf(chart));
    assert.match(textOf(chart), new RegExp(`^Charted ${answer.abstract.length} rows? by severity`));
  });

  test('sync flow: body inline, nothing cached, column_mapping renames for the consumer', async () => {
    const result = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event', mode: 'sync' },
    });
    const answer = jsonOf(result);
    assert.equal(answer.resource_url, undefined);
    assert.equal(answer.body.length, answer.total_rows);
    assert.deepEqual(Object.keys(answer.body[0]), ['_row_id', ...answer.body_domains]);

    const chosen = answer.abstract.slice(0, 4);
    const chosenBody = answer.body.filter((row: { _row_id: number }) =>
      chosen.some((c: { _row_id: number }) => c._row_id === row._row_id),
    );
    const chart = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: {
        abstract_data: JSON.stringify(chosen),
        body_data: JSON.stringify(chosenBody),
        column_mapping: JSON.stringify({ severity: 'level' }),
        group_by: 'level',
      },
    });
    assert.equal(chart.isError, undefined, textOf(chart));
    const expected = new Map<string, number>();
    for (const row of chosenBody) expected.set(row.severity, (expected.get(row.severity) ?? 0) + 1);
    const summary = textOf(chart);
    assert.match(summary, /^Charted 4 rows by level/);
    for (const [level, count] of expected) assert.ok(summary.includes(`${level} ${count}`), summary);
  });

  test('compact async flow: abstract_format "columns" answers rows as arrays, and the consumer takes the rows picked from it', async () => {
    const standardResult = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event,severity' },
    });
    const standard = jsonOf(standardResult);
    const result = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event,severity', abstract_format: 'columns' },
    });
    const answer = jsonOf(result);
    assert.deepEqual(Object.keys(answer), ['total_rows', 'body_domains', 'resource_url', 'abstract']);
    assert.deepEqual(result.structuredContent, answer, 'the structured content passes the published output schema');
    assert.deepEqual(answer.body_domains, standard.body_domains);
    assert.match(answer.resource_url, RESOURCE_URL);
    assert.deepEqual(answer.abstract.columns, ['_row_id', 'event', 'severity']);
    assert.deepEqual(
      answer.abstract.rows,
      standard.abstract.map((row: Record<string, unknown>) => [row._row_id, row.event, row.severity]),
    );
    assert.ok(textOf(result).length < textOf(standardResult).length);

    const picked = {
      columns: answer.abstract.columns,
      rows: answer.abstract.rows.filter((_: unknown, index: number) => index % 2 === 1),
    };
    const chart = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: JSON.stringify(picked), resource_url: answer.resource_url, group_by: 'severity' },
    });
    assert.equal(chart.isError, undefined, textOf(chart));
    const expected = new Map<string, number>();
    for (const [, , severity] of picked.rows) expected.set(severity, (expected.get(severity) ?? 0) + 1);
    const summary = textOf(chart);
    assert.match(summary, new RegExp(`^Charted ${picked.rows.length} rows? by severity`));
    for (const [severity, count] of expected) assert.ok(summary.includes(`${severity} ${count}`), summary);
  });

  test('compact sync flow: the body comes inline in the same layout and the consumer merges it by _row_id', async () => {
    const answer = jsonOf(
      await agentToWeather.callTool({
        name: 'get_alerts',
        arguments: { area: 'CA', abstract_domains: 'event', mode: 'sync', abstract_format: 'columns' },
      }),
    );
    assert.deepEqual(Object.keys(answer), ['total_rows', 'abstract', 'body']);
    assert.equal(answer.body.columns[0], '_row_id');
    assert.ok(answer.body.columns.includes('severity'));
    assert.equal(answer.body.rows.length, answer.total_rows);

    const chart = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: {
        abstract_data: JSON.stringify(answer.abstract),
        body_data: JSON.stringify(answer.body),
        group_by: 'severity',
      },
    });
    assert.equal(chart.isError, undefined, textOf(chart));
    assert.match(textOf(chart), new RegExp(`^Charted ${answer.total_rows} rows by severity`));
  });

  test('bad inputs are clear tool errors and the servers stay up', async () => {
    const badFormat = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event', abstract_format: 'table' },
    });
    assert.equal(badFormat.isError, true);
    assert.match(textOf(badFormat), /abstract_format/);

    const formatWithoutDomains = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_format: 'columns' },
    });
    assert.equal(formatWithoutDomains.isError, true);
    assert.match(
      textOf(formatWithoutDomains),
      /abstract_format "columns" lays out an S2SP answer: give abstract_domains too/,
    );

    const badCompact = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: '{"columns":["event"],"rows":[["x"]]}' },
    });
    assert.equal(badCompact.isError, true);
    assert.match(textOf(badCompact), /abstract_data\.columns must include _row_id/);

    const unknownColumn = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event,colour' },
    });
    assert.equal(unknownColumn.isError, true);
    assert.match(
      textOf(unknownColumn),
      /Unknown column in abstract_domains: colour\. Available columns: .*severity.*event/,
    );

    const badMode = await agentToWeather.callTool({
      name: 'get_alerts',
      arguments: { area: 'CA', abstract_domains: 'event', mode: 'fast' },
    });
    assert.equal(badMode.isError, true);
    assert.match(textOf(badMode), /mode/);

    const unknownArea = await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'ZZ' } });
    assert.equal(unknownArea.isError, true);
    assert.match(textOf(unknownArea), /ZZ/);

    const malformed = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: '[{"_row_id": 0,' },
    });
    assert.equal(malformed.isError, true);
    assert.match(textOf(malformed), /abstract_data is not valid JSON/);

    const answer = jsonOf(
      await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    );
    const missingRow = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: JSON.stringify([{ _row_id: 999, event: 'x' }]), resource_url: answer.resource_url },
    });
    assert.equal(missingRow.isError, true);
    assert.match(textOf(missingRow), /_row_id 999/);
    assert.ok(!textOf(missingRow).includes(tokenOf(answer.resource_url)), 'no token in error messages');

    const stillWorks = await agentToStats.callTool({
      name: 'draw_chart',
      arguments: { abstract_data: JSON.stringify(answer.abstract), resource_url: answer.resource_url },
    });
    assert.equal(stillWorks.isError, undefined, 'a refused fetch does not consume the resource');

    const healthy = await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'AK' } });
    assert.equal(healthy.isError, undefined);
  });

  test('a resource_url outside the allowlist is refused before any connection', async () => {
    const { createServer } = await import('node:http');
    let connections = 0;
    const decoy = createServer((_request, response) => response.end('{}'));
    decoy.on('connection', () => connections++);
    await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
    const port = (decoy.address() as { port: number }).port;
    try {
      const refused = await agentToStats.callTool({
        name: 'draw_chart',
        arguments: {
          abstract_data: '[{"_row_id":0,"event":"Flood Watch"}]',
          resource_url: `http://127.0.0.1:${port}/s2sp/data/${'a'.repeat(43)}`,
        },
      });
      assert.equal(refused.isError, true);
      assert.match(textOf(refused), /not an allowed resource server/);
      assert.equal(connections, 0);
    } finally {
      await new Promise((resolve) => decoy.close(resolve));
    }
  });

  test('of many concurrent fetches of one resource_url exactly one succeeds', async () => {
    const answer = jsonOf(
      await agentToWeather.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    );
    const results = await Promise.all(
      Array.from({ length: 25 }, () => fetchResource(answer.resource_url, { row_ids: [0, 1] })),
    );
    const statuses = results.map((result) => result.status).sort();
    assert.equal(statuses.filter((status) => status === 200).length, 1);
    assert.equal(statuses.filter((status) => status === 404).length, 24);
    const winner = results.find((result) => result.status === 200)!;
    assert.deepEqual(
      winner.json.body.map((row: { _row_id: number }) => row._row_id),
      [0, 1],
    );
  });
});
