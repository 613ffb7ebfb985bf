import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, jsonOf, textOf } from '../support/mcp-client';
import { HTTP_PLATFORMS, startStats, startWeather } from '../support/stack';

/**
 * Our consumer (stats-server, called with a caller token) against resource
 * servers of both data-plane policies, with and without an audience configured.
 */
for (const platform of HTTP_PLATFORMS)
  describe(`the consumer against each data-plane auth policy (resource server on ${platform})`, () => {
    let capabilityWeather: RunningMcpServer;
    let bearerWeather: RunningMcpServer;
    let statsWithoutAudiences: RunningMcpServer;
    let statsWithAudiences: RunningMcpServer;
    const clients: Client[] = [];

    before(async () => {
      [capabilityWeather, bearerWeather] = await Promise.all([
        startWeather({ dataPlaneAuth: 'capability', platform }),
        startWeather({ platform }),
      ]);
      const origins = [capabilityWeather.url, bearerWeather.url];
      [statsWithoutAudiences, statsWithAudiences] = await Promise.all([
        startStats(origins, { resourceAudiences: {} }),
        startStats(origins, {
          resourceAudiences: {
            [capabilityWeather.url]: 'weather-server',
            [bearerWeather.url]: 'not-the-weather-server',
          },
        }),
      ]);
    });
    after(async () => {
      await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
      await Promise.all(
        [statsWithoutAudiences, statsWithAudiences, capabilityWeather, bearerWeather].map((server) => server?.close()),
      );
    });

    async function windAlerts(
      weather: RunningMcpServer,
    ): Promise<{ resource_url: string; abstract: Array<{ _row_id: number; event: string }> }> {
      const agent = await connectMcp(weather.url);
      clients.push(agent);
      const answer = jsonOf(
        await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      return {
        resource_url: answer.resource_url,
        abstract: answer.abstract.filter((row: { event: string }) => row.event.includes('Wind')),
      };
    }

    async function drawChart(stats: RunningMcpServer, alerts: Awaited<ReturnType<typeof windAlerts>>) {
      const agent = await connectMcp(stats.url, 'e2e-test', { audience: 'stats-server' });
      clients.push(agent);
      return agent.callTool({
        name: 'draw_chart',
        arguments: {
          abstract_data: JSON.stringify(alerts.abstract),
          resource_url: alerts.resource_url,
          group_by: 'severity',
        },
      });
    }

    test('a capability server needs only the allowlist entry: no audience, no token, the body is fetched', async () => {
      const alerts = await windAlerts(capabilityWeather);
      const chart = await drawChart(statsWithoutAudiences, alerts);
      assert.ok(!chart.isError, chart.isError ? textOf(chart) : '');
      assert.match(textOf(chart), new RegExp(`^Charted ${alerts.abstract.length} rows? by severity`));
      assert.doesNotMatch(textOf(chart), /\(none\)|undefined/, 'every chosen row has its severity from the body');
    });

    test('a capability server ignores the narrowed token a consumer with an audience still sends', async () => {
      const chart = await drawChart(statsWithAudiences, await windAlerts(capabilityWeather));
      assert.ok(!chart.isError, chart.isError ? textOf(chart) : '');
    });

    test('a bearer server refuses a consumer with no audience for it, and the tool error says why and what to change', async () => {
      const chart = await drawChart(statsWithoutAudiences, await windAlerts(bearerWeather));
      assert.equal(chart.isError, true);
      const message = textOf(chart);
      assert.match(message, /refused the fetch \(HTTP 401\)/);
      assert.match(message, /requires a bearer token on its data plane \(dataPlaneAuth "bearer"\)/);
      assert.ok(
        message.includes(`no audience is configured for ${bearerWeather.url} (S2spModule resourceAudiences)`),
        message,
      );
      assert.doesNotMatch(message, /\/s2sp\/data\//, 'the resource_url is not echoed');
    });

    test('a bearer server refusing the token it was sent is told apart from no token at all', async () => {
      const chart = await drawChart(statsWithAudiences, await windAlerts(bearerWeather));
      assert.equal(chart.isError, true);
      assert.match(textOf(chart), /did not accept the caller's token narrowed for audience "not-the-weather-server"/);
    });
  });
