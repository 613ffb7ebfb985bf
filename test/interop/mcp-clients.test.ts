import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunningMcpServer } from '@s2sp/core';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as StreamableHTTPClientTransportV2,
} from '@modelcontextprotocol/client';
import { connectMcp, jsonOf, textOf, type ToolCallResult } from '../support/mcp-client';
import { interopScript, python3SkipReason, pythonWithMcpSdk, runJsonScript } from '../support/python';
import { chartedCounts, countsOf } from '../support/chart-summary';
import { startStats, startWeather } from '../support/stack';
import { mintTestToken, type TestTokenRequest } from '../support/tokens';

type Operation = { op: 'list_tools' } | { op: 'call_tool'; name: string; arguments: Record<string, unknown> };
type OperationResult = { tools: string[] } | ToolCallResult;

/** An MCP client library, driven through one session per `run`: the operations in order, one result each. */
interface InteropClient {
  run(mcpBaseUrl: string, token: TestTokenRequest, operations: readonly Operation[]): Promise<OperationResult[]>;
}

/** What a session of either MCP TypeScript SDK line offers for the round trip. */
interface TypescriptMcpSession {
  listTools(): Promise<{ tools: Array<{ name: string }> }>;
  callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

/** An MCP TypeScript SDK client, one session per run. */
function typescriptSdk(
  connect: (mcpBaseUrl: string, token: TestTokenRequest) => Promise<TypescriptMcpSession>,
): InteropClient {
  return {
    async run(mcpBaseUrl, token, operations) {
      const client = await connect(mcpBaseUrl, token);
      try {
        const results: OperationResult[] = [];
        for (const operation of operations) {
          results.push(
            operation.op === 'list_tools'
              ? { tools: (await client.listTools()).tools.map((tool) => tool.name) }
              : ((await client.callTool({ name: operation.name, arguments: operation.arguments })) as ToolCallResult),
          );
        }
        return results;
      } finally {
        await client.close();
      }
    },
  };
}

/** The MCP TypeScript SDK, v1 line (@modelcontextprotocol/sdk). */
const typescriptSdkV1 = typescriptSdk((mcpBaseUrl, token) =>
  connectMcp(mcpBaseUrl, 'interop-typescript-sdk-v1', token),
);

/** The MCP TypeScript SDK, v2 line (@modelcontextprotocol/client). */
const typescriptSdkV2 = typescriptSdk(async (mcpBaseUrl, token) => {
  const client = new ClientV2({ name: 'interop-typescript-sdk-v2', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransportV2(new URL(`${mcpBaseUrl}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${await mintTestToken(token)}` } },
  });
  await client.connect(transport);
  return client;
});

/** The official Python MCP SDK (`mcp` on PyPI), in a cached virtual environment, driven by python_sdk_client.py. */
function pythonSdk(python: () => string): InteropClient {
  return {
    async run(mcpBaseUrl, token, operations) {
      const run = await runJsonScript<OperationResult[]>(
        python(),
        [interopScript('python_sdk_client.py'), `${mcpBaseUrl}/mcp`, await mintTestToken(token)],
        operations,
      );
      assert.equal(run.exitCode, 0, run.stderr);
      return run.output;
    },
  };
}

// The scopes each server's tool needs and nothing more: get_alerts reads weather; draw_chart
// charts, and its server fetches the body from the weather server on the caller's behalf.
const WEATHER_TOKEN: TestTokenRequest = { audience: 'weather-server', scopes: ['weather:read'] };
const STATS_TOKEN: TestTokenRequest = {
  audience: 'stats-server',
  scopes: ['stats:chart', 's2sp:data:read', 'weather:read'],
};

type Alert = Record<string, unknown>;

/**
 * The S2SP round trip as any MCP client makes it: list and call get_alerts on the
 * weather server, choose some abstract rows, list and call draw_chart on the stats
 * server with them and the resource_url. The chart groups by a body column, which
 * only the server-to-server fetch can have brought to the stats server.
 */
function describeRoundTrip(
  clientName: string,
  client: () => InteropClient,
  skipReason: () => string | undefined,
): void {
  describe(`${clientName} against the example servers`, () => {
    let weather: RunningMcpServer | undefined;
    let stats: RunningMcpServer | undefined;
    before(async () => {
      if (skipReason()) return;
      weather = await startWeather();
      stats = await startStats([weather.url]);
    });
    after(async () => {
      await stats?.close();
      await weather?.close();
    });

    test('lists and calls get_alerts with a bearer token, then draw_chart with the returned resource_url', async (t) => {
      const reason = skipReason();
      if (reason) {
        t.skip(reason);
        return;
      }
      const [weatherTools, fullTable, abstractAnswer] = await client().run(weather!.url, WEATHER_TOKEN, [
        { op: 'list_tools' },
        { op: 'call_tool', name: 'get_alerts', arguments: { area: 'CA' } },
        { op: 'call_tool', name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event,severity' } },
      ]);
      assert.ok((weatherTools as { tools: string[] }).tools.includes('get_alerts'));
      const rows = jsonOf<Alert[]>(fullTable as ToolCallResult);
      const answer = jsonOf(abstractAnswer as ToolCallResult);
      assert.equal(answer.total_rows, rows.length);
      assert.ok(!answer.abstract_domains.includes('urgency') && answer.body_domains.includes('urgency'));
      assert.match(answer.resource_url, /^http:\/\/127\.0\.0\.1:\d+\/s2sp\/data\/[A-Za-z0-9_-]{43}$/);

      const chosen = (answer.abstract as Array<{ _row_id: number }>).filter((row) => row._row_id % 3 !== 1);
      assert.ok(chosen.length > 1 && chosen.length < rows.length, 'the client picks some of the rows');
      const [statsTools, chart] = await client().run(stats!.url, STATS_TOKEN, [
        { op: 'list_tools' },
        {
          op: 'call_tool',
          name: 'draw_chart',
          arguments: { abstract_data: JSON.stringify(chosen), resource_url: answer.resource_url, group_by: 'urgency' },
        },
      ]);
      assert.ok((statsTools as { tools: string[] }).tools.includes('draw_chart'));
      const chartResult = chart as ToolCallResult;
      assert.notEqual(chartResult.isError, true, textOf(chartResult));
      assert.deepEqual(
        chartedCounts(textOf(chartResult), chosen.length, 'urgency'),
        countsOf(chosen.map((row) => rows[row._row_id].urgency)),
        'the chart counts the chosen rows by a column fetched server to server',
      );
      const image = (chartResult.content as Array<{ type: string; mimeType?: string }>).find(
        (block) => block.type === 'image',
      );
      assert.equal(image?.mimeType, 'image/svg+xml');
    });
  });
}

describe('MCP clients nobody here wrote', () => {
  describeRoundTrip(
    'the MCP TypeScript SDK v1 client',
    () => typescriptSdkV1,
    () => undefined,
  );
  describeRoundTrip(
    'the MCP TypeScript SDK v2 client',
    () => typescriptSdkV2,
    () => undefined,
  );

  const pythonMissing = python3SkipReason();
  let python: string | undefined;
  // Creating the environment downloads the SDK once; later runs reuse it.
  before(
    async () => {
      if (!pythonMissing) python = await pythonWithMcpSdk();
    },
    { timeout: 600_000 },
  );
  describeRoundTrip(
    `the official Python MCP SDK (mcp on PyPI)`,
    () => pythonSdk(() => python!),
    () => pythonMissing,
  );
});
