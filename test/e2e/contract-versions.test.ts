import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JSONRPCClient } from 'json-rpc-2.0';
import { CONTRACT_VERSION, fromStruct, toStruct, v1, v2 } from '@s2sp/contracts';
import type { RunningMcpServer } from '@s2sp/core';
import { startGateway, type RunningGateway } from '../../libs/gateway/src/gateway';
import { defaultGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { connectAgents, unary, type AgentsClients } from '../support/agents-grpc-client';
import { agentsTestConfig, eventually, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { gatewayRpcClient } from '../support/gateway-rpc-client';
import { startStats, startWeather, tempDir } from '../support/stack';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';
import { ALL_TEST_SCOPES, tokenFromScript } from '../support/tokens';

/**
 * Contract versions side by side: one running stack serves s2sp.v1 and
 * s2sp.v2; a v1 client (JSON-RPC tools.call, gRPC s2sp.v1 with its own
 * proto-loader) and a v2 client (v2.tools.call, gRPC s2sp.v2) each get what
 * they asked for from the same agents.
 */
describe('contract versions: s2sp.v1 and s2sp.v2 served side by side', () => {
  const agentsDir = tempDir('s2sp-agents-');
  let weather: RunningMcpServer;
  let stats: RunningMcpServer;
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let gateway: RunningGateway;
  let grpcClients: AgentsClients;
  let rpc: JSONRPCClient;

  const rows = [
    { _row_id: 0, event: 'Wind Advisory' },
    { _row_id: 1, event: 'Gale Warning' },
    { _row_id: 2, event: 'Wind Advisory' },
  ];
  const chartArguments = { abstract_data: JSON.stringify(rows), group_by: 'event', title: 'Versions' };

  before(async () => {
    const authorization = `Bearer ${await tokenFromScript({ subject: 'alice', scopes: ALL_TEST_SCOPES })}`;
    weather = await startWeather();
    stats = await startStats([weather.url]);
    testkit = await startTestMcpServer();
    agents = await startTestAgents(
      agentsTestConfig(
        [
          { id: 'weather', url: `${weather.url}/mcp` },
          { id: 'stats', url: `${stats.url}/mcp` },
          { id: 'testkit', url: testkit.mcpUrl },
        ],
        { dataDir: agentsDir.path },
      ),
    );
    gateway = await startGateway({
      ...defaultGatewayConfig(),
      port: 0,
      agentsUrl: agents.url,
      dataDir: ':memory:',
      logger: false,
    });
    grpcClients = connectAgents(agents.url);
    rpc = gatewayRpcClient(gateway.url, authorization);
    await eventually('every MCP server discovered', async () => {
      const listed = (await rpc.request('tools.list', { page_size: 200 })) as { tools: Array<{ name: string }> };
      const names = new Set(listed.tools.map((tool) => tool.name));
      return names.has('get_alerts') && names.has('draw_chart') && names.has('always_fails') ? true : undefined;
    });
  });

  after(async () => {
    grpcClients?.close();
    await gateway?.close();
    await agents?.close();
    await testkit?.close();
    await stats?.close();
    await weather?.close();
    agentsDir.remove();
  });

  test('rpc.discover serves both methods, marks the v1 one deprecated and reports the contract version', async () => {
    const document = (await rpc.request('rpc.discover', {})) as {
      info: { version: string };
      methods: Array<{ name: string; deprecated?: boolean; description?: string }>;
    };
    assert.equal(document.info.version, CONTRACT_VERSION);
    const byName = new Map(document.methods.map((method) => [method.name, method]));
    assert.equal(byName.get('tools.call')?.deprecated, true);
    assert.match(byName.get('tools.call')?.description ?? '', /use v2\.tools\.call/);
    assert.ok(byName.has('v2.tools.call'));
    assert.notEqual(byName.get('v2.tools.call')?.deprecated, true);
  });

  test('JSON-RPC: tools.call answers as in contract 1, v2.tools.call with the same result plus usage and provenance', async () => {
    const params = { name: 'draw_chart', server: 'stats', arguments: chartArguments };
    const old = (await rpc.request('tools.call', params)) as {
      content: Array<Record<string, unknown>>;
      usage?: unknown;
    };
    const current = (await rpc.request('v2.tools.call', params)) as {
      invocation_id: string;
      result: { content: Array<Record<string, unknown>> };
      usage: { tokens_in_context: number; tool_calls: number };
      provenance: { server: string; tool: string; content_sha256: string };
      error?: unknown;
    };
    assert.equal(old.usage, undefined, 'a v1 caller gets the MCP result only');
    assert.deepEqual(
      current.result.content,
      old.content,
      'the image and the text arrive the same, whichever version carried them',
    );
    assert.equal(current.result.content[0].type, 'image');
    assert.match(String(current.result.content[1].text), /^Charted 3 rows by event in 2 bars/);
    assert.match(current.invocation_id, /^[0-9a-f-]{36}$/);
    assert.equal(current.usage.tool_calls, 1);
    assert.ok(current.usage.tokens_in_context > 0);
    assert.equal(current.provenance.server, 'stats');
    assert.equal(current.provenance.tool, 'draw_chart');
    assert.match(current.provenance.content_sha256, /^[0-9a-f]{64}$/);
    assert.equal(current.error, undefined);
  });

  test('JSON-RPC: a tool error is a result with isError in both versions, and a typed error only in v2', async () => {
    const params = { name: 'always_fails', server: 'testkit', arguments: {} };
    const old = (await rpc.request('tools.call', params)) as { isError?: boolean; error?: unknown };
    const current = (await rpc.request('v2.tools.call', params)) as {
      result: { isError?: boolean };
      error: { code: number; message: string; recovery_hint: string };
    };
    assert.equal(old.isError, true);
    assert.equal(old.error, undefined);
    assert.equal(current.result.isError, true);
    assert.equal(current.error.code, 1002);
    assert.equal(current.error.recovery_hint, 'CHECK_TOOL_ARGUMENTS');
    assert.ok(current.error.message.length > 0);
  });

  test('JSON-RPC: v2 reports the data-plane reference of an S2SP resource tool; its resource_url stays in the result only', async () => {
    const current = (await rpc.request('v2.tools.call', {
      name: 'get_alerts',
      server: 'weather',
      arguments: { area: 'CA', abstract_domains: 'event' },
    })) as {
      data_plane: {
        mode: string;
        abstract_domains: string[];
        body_domains: string[];
        total_rows: number;
        resource_url?: string;
      };
      usage: { rows_in_context: number; rows_kept_out: number };
    };
    assert.equal(current.data_plane.mode, 'async');
    assert.deepEqual(current.data_plane.abstract_domains, ['event']);
    assert.ok(current.data_plane.body_domains.includes('severity'));
    assert.ok(current.data_plane.total_rows > 0);
    assert.equal(current.data_plane.resource_url, undefined);
    assert.equal(current.usage.rows_in_context, current.data_plane.total_rows);
  });

  test('gRPC: the same agents answer s2sp.v1 with a Struct and s2sp.v2 with typed blocks whose image is bytes', async () => {
    const request = { tool_name: 'draw_chart', server: 'stats', input_params: toStruct(chartArguments) };
    const oldAnswer = await unary(grpcClients.tools, 'InvokeTool', request);
    const newAnswer = await unary(grpcClients.toolsV2, 'InvokeTool', request);

    const oldImage = oldAnswer.output.fields.content.listValue.values[0].structValue.fields;
    assert.equal(oldImage.type.stringValue, 'image');
    const base64 = oldImage.data.stringValue as string;

    const [image, text] = newAnswer.result.content;
    assert.equal(image.block, 'image');
    assert.equal(image.image.mime_type, 'image/svg+xml');
    assert.ok(Buffer.isBuffer(image.image.data));
    assert.deepEqual(image.image.data, Buffer.from(base64, 'base64'), 'v2 carries the bytes MCP sent as base64');
    assert.match(text.text.text, /^Charted 3 rows/);
    assert.equal(newAnswer.provenance.server, 'stats');

    // The same answer is smaller on the wire in v2: bytes instead of base64 text in a Struct.
    const oldBytes = v1.ToolInvocationResponse.encode(v1ToolInvocationResponseOf(oldAnswer)).finish().length;
    const newBytes = v2.InvokeToolResponse.encode(
      v2.InvokeToolResponse.fromPartial({
        result: { content: [{ image: { data: image.image.data, mime_type: 'image/svg+xml' } }] },
      }),
    ).finish().length;
    assert.ok(
      newBytes < base64.length && base64.length < oldBytes,
      `v2 image block ${newBytes} B, base64 ${base64.length} B, v1 answer ${oldBytes} B`,
    );
  });

  test('gRPC: s2sp.v2 has no request deadline field; the gRPC deadline bounds the call', async () => {
    assert.equal('deadline' in v2.InvokeToolRequest.create(), false);
    const error = await unary(
      grpcClients.toolsV2,
      'InvokeTool',
      { tool_name: 'slow', server: 'testkit', input_params: toStruct({ ms: 5_000 }) },
      { deadlineMs: 300 },
    ).then(
      () => assert.fail('a 5 s tool answered within a 300 ms deadline'),
      (failure: { code: number }) => failure,
    );
    assert.equal(error.code, 4); // DEADLINE_EXCEEDED
  });
});

/** The v1 answer as the generated codec's message, to measure its encoded size. */
function v1ToolInvocationResponseOf(answer: Record<string, any>): v1.ToolInvocationResponse {
  return v1.ToolInvocationResponse.fromPartial({
    invocation_id: answer.invocation_id,
    output: fromStruct(answer.output),
  });
}
