import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, textOf } from '../support/mcp-client';
import { startStats } from '../support/stack';

const TOTAL_ROWS = 6;
const SEVERITIES = ['Minor', 'Severe'];

/**
 * What our consumer sends to a resource server for the rows the agent chose:
 * the `row_ids` it names, and none when the caller's `_meta` says the chosen
 * rows are every row of the resource (`s2sp/total_rows`, which our agents send).
 * The resource server here records each request and answers the full rows.
 */
describe('the consumer names the chosen rows unless they are every row', () => {
  let resourceServer: Server;
  let origin: string;
  const requests: Array<Record<string, unknown>> = [];
  let stats: RunningMcpServer;
  let agent: Client;

  before(async () => {
    resourceServer = createServer((request, response) => {
      let text = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (text += chunk));
      request.on('end', () => {
        const asked = JSON.parse(text) as { row_ids?: number[] };
        requests.push(asked);
        const ids = asked.row_ids ?? Array.from({ length: TOTAL_ROWS }, (_, i) => i);
        const body = ids.map((id) => ({ _row_id: id, severity: SEVERITIES[id % 2] }));
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ body, total_rows: TOTAL_ROWS, columns_returned: ['_row_id', 'severity'] }));
      });
    });
    await new Promise<void>((resolve) => resourceServer.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(resourceServer.address() as AddressInfo).port}`;
    stats = await startStats([origin], { resourceAudiences: {} });
    agent = await connectMcp(stats.url, 'e2e-test', { audience: 'stats-server' });
  });
  after(async () => {
    await agent?.close().catch(() => undefined);
    await stats?.close();
    await new Promise((resolve) => resourceServer?.close(resolve));
  });

  async function drawChart(
    rowIds: number[],
    meta?: Record<string, unknown>,
  ): Promise<{ chart: string; asked: Record<string, unknown> }> {
    const before = requests.length;
    const abstract = rowIds.map((id) => ({ _row_id: id, event: `event ${id}` }));
    const result = await agent.callTool({
      name: 'draw_chart',
      arguments: {
        abstract_data: JSON.stringify(abstract),
        resource_url: `${origin}/s2sp/data/${'a'.repeat(64)}`,
        group_by: 'severity',
      },
      ...(meta ? { _meta: meta } : {}),
    });
    assert.ok(!result.isError, result.isError ? textOf(result) : '');
    assert.equal(requests.length, before + 1, 'one data-plane fetch per call');
    return { chart: textOf(result), asked: requests[before] };
  }

  test('every row chosen and s2sp/total_rows says so: the fetch names no row_ids, and every row is charted', async () => {
    const every = Array.from({ length: TOTAL_ROWS }, (_, i) => TOTAL_ROWS - 1 - i);
    const { chart, asked } = await drawChart(every, { 's2sp/total_rows': TOTAL_ROWS });
    assert.equal('row_ids' in asked, false, JSON.stringify(asked));
    assert.match(chart, new RegExp(`^Charted ${TOTAL_ROWS} rows by severity`));
  });

  test('some rows chosen: the fetch names exactly those', async () => {
    const { chart, asked } = await drawChart([4, 1], { 's2sp/total_rows': TOTAL_ROWS });
    assert.deepEqual(asked.row_ids, [4, 1]);
    assert.match(chart, /^Charted 2 rows by severity/);
  });

  test('as many rows as the resource has, but not the same ones (ids past the end): the fetch names them', async () => {
    const { asked } = await drawChart([0, 1, 2, 3, 4, 9], { 's2sp/total_rows': TOTAL_ROWS });
    assert.deepEqual(asked.row_ids, [0, 1, 2, 3, 4, 9]);
  });

  test('every row chosen but no s2sp/total_rows in _meta: the consumer cannot know, and names them', async () => {
    const every = Array.from({ length: TOTAL_ROWS }, (_, i) => i);
    const { asked } = await drawChart(every);
    assert.deepEqual(asked.row_ids, every);
  });
});
