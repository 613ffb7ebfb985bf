// What S2spMcpStrategy (serveMcp) adds so tools can talk to their client, spoken to on the
// 2026-07-28 wire as any client would: InputRequiredResults with sealed requestState, tasks
// (runAsTask, tasks/get, tasks/update, tasks/cancel), parameters mirrored into Mcp-Param-*
// headers, and ResourceNotFoundError for unknown resources. apps/conformance-server and the
// official suite exercise the same features more widely (test/conformance).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { inputRequired, inputResponse, type CallToolResult } from '@modelcontextprotocol/server';
import { McpController, Tool, type McpContext } from '@rekog/mcp-nest';
import {
  InMemoryResourceStore,
  mcpParamHeaders,
  mcpServerContext,
  runAsTask,
  S2spModule,
  sealRequestState,
  serveMcp,
  type RunningMcpServer,
} from '@s2sp/core';
import { z } from 'zod';
import { callModern as call } from '../support/modern-wire';

const TASKS = 'io.modelcontextprotocol/tasks';
const text = (value: string): CallToolResult => ({ content: [{ type: 'text', text: value }] });

@McpController()
class InteractionController {
  @Tool({ name: 'count_up', description: 'Counts rounds in sealed state; stops at 2.' })
  async countUp(@Ctx() context: McpContext) {
    const round = mcpServerContext(context).mcpReq.requestState<{ round: number }>()?.round ?? 0;
    if (round >= 2) return text(`done after ${round} rounds`);
    return inputRequired({
      inputRequests: {
        go: inputRequired.elicit({
          message: 'Go on?',
          requestedSchema: { type: 'object', properties: { go: { type: 'boolean' } }, required: ['go'] },
        }),
      },
      requestState: await sealRequestState(context, { round: round + 1 }),
    });
  }

  @Tool({
    name: 'slow',
    description: 'Waits, as a task when the client supports tasks; asks first when asked to.',
    parameters: z.object({ ms: z.number(), ask: z.boolean().optional() }),
  })
  slow(@Payload() args: { ms: number; ask?: boolean }, @Ctx() context: McpContext) {
    return runAsTask(context, async (task) => {
      if (args.ask && inputResponse(task.inputResponses, 'ok').kind !== 'elicit')
        return inputRequired({
          inputRequests: {
            ok: inputRequired.elicit({
              message: 'OK?',
              requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
            }),
          },
        });
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, args.ms);
        task.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('cancelled'));
        });
      });
      return text(`waited ${args.ms} ms`);
    });
  }

  @Tool({ name: 'three_steps', description: 'Reports progress three times.' })
  async threeSteps(@Ctx() context: McpContext): Promise<CallToolResult> {
    for (const step of [1, 2, 3]) await context.reportProgress({ progress: step, total: 3 });
    return text('three steps');
  }

  @Tool({ name: 'only_as_task', description: 'Needs the tasks extension.' })
  onlyAsTask(@Ctx() context: McpContext) {
    return runAsTask(context, () => Promise.resolve(text('ran as a task')), { required: true });
  }

  @Tool({
    name: 'routed',
    description: 'Its region is mirrored into a header.',
    parameters: z.object({ region: z.string() }),
    _meta: mcpParamHeaders({ region: 'Region' }),
  })
  routed(@Payload() args: { region: string }): CallToolResult {
    return text(`routed to ${args.region}`);
  }
}

@Module({
  imports: [S2spModule.forRoot({ resourceStore: { useValue: new InMemoryResourceStore() }, warmUp: false })],
  controllers: [InteractionController],
})
class InteractionModule {}

const withTasks = { elicitation: {}, extensions: { [TASKS]: {} } };

async function settled(url: string, taskId: string): Promise<Record<string, any>> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const task = (await call(url, 'tasks/get', { taskId }, { capabilities: withTasks })).result!;
    if (task['status'] !== 'working') return task;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`task ${taskId} did not settle`);
}

describe('serveMcp: InputRequiredResult, sealed requestState, tasks, mirrored headers (2026-07-28 wire)', () => {
  let server: RunningMcpServer;
  let url: string;

  before(async () => {
    server = await serveMcp(InteractionModule, {
      name: 'interaction',
      version: '1.0.0',
      host: '127.0.0.1',
      port: 0,
      transport: 'http',
      logger: false,
      tasks: { ttlMs: 60_000, pollIntervalMs: 100 },
      requestState: { key: 'a test key that is at least thirty-two bytes long' },
    });
    url = server.url;
  });
  after(() => server?.close());

  test('an InputRequiredResult reaches the client as it is, and the sealed state comes back round after round', async () => {
    const first = await call(url, 'tools/call', { name: 'count_up', arguments: {} });
    assert.equal(first.result?.['resultType'], 'input_required');
    assert.deepEqual(Object.keys(first.result?.['inputRequests'] as object), ['go']);
    const answer = { go: { action: 'accept', content: { go: true } } };
    const second = await call(url, 'tools/call', {
      name: 'count_up',
      arguments: {},
      inputResponses: answer,
      requestState: first.result?.['requestState'],
    });
    const third = await call(url, 'tools/call', {
      name: 'count_up',
      arguments: {},
      inputResponses: answer,
      requestState: second.result?.['requestState'],
    });
    assert.deepEqual(third.result?.['content'], [{ type: 'text', text: 'done after 2 rounds' }]);
  });

  test('a changed requestState, or one sealed with another key, is refused before the tool runs', async () => {
    const first = await call(url, 'tools/call', { name: 'count_up', arguments: {} });
    const state = String(first.result?.['requestState']);
    const [version, body, mac] = state.split('.');
    const forged = `${version}.${Buffer.from(JSON.stringify({ p: { round: 2 }, exp: 9e9 })).toString('base64url')}.${mac}`;
    for (const requestState of [`${state}x`, forged, body]) {
      const refused = await call(url, 'tools/call', { name: 'count_up', arguments: {}, requestState });
      assert.equal(refused.error?.code, -32602, JSON.stringify(refused));
      assert.equal(refused.error?.message, 'Invalid or expired requestState');
    }
  });

  test('runAsTask: a client with the extension gets a task, follows it to its result, and can cancel one', async () => {
    const created = (
      await call(url, 'tools/call', { name: 'slow', arguments: { ms: 50 } }, { capabilities: withTasks })
    ).result!;
    assert.equal(created['resultType'], 'task');
    assert.equal(created['status'], 'working');
    assert.equal(created['pollIntervalMs'], 100);
    const done = await settled(url, created['taskId'] as string);
    assert.equal(done['status'], 'completed');
    assert.deepEqual(done['result'], { content: [{ type: 'text', text: 'waited 50 ms' }] });

    const long = (
      await call(url, 'tools/call', { name: 'slow', arguments: { ms: 60_000 } }, { capabilities: withTasks })
    ).result!;
    const ack = await call(url, 'tasks/cancel', { taskId: long['taskId'] }, { capabilities: withTasks });
    assert.deepEqual(ack.result?.['resultType'], 'complete');
    assert.equal((await settled(url, long['taskId'] as string))['status'], 'cancelled');
  });

  test('runAsTask: a task that asks parks as input_required until tasks/update answers', async () => {
    const created = (
      await call(url, 'tools/call', { name: 'slow', arguments: { ms: 10, ask: true } }, { capabilities: withTasks })
    ).result!;
    const taskId = created['taskId'] as string;
    const parked = await settled(url, taskId);
    assert.equal(parked['status'], 'input_required');
    assert.deepEqual(Object.keys(parked['inputRequests'] as object), ['ok']);
    await call(
      url,
      'tasks/update',
      { taskId, inputResponses: { ok: { action: 'accept', content: { ok: true } } } },
      { capabilities: withTasks },
    );
    assert.equal((await settled(url, taskId))['status'], 'completed');
  });

  test('runAsTask without the extension: the result in the call; required, -32021 naming it; tasks/* refused', async () => {
    const inline = await call(url, 'tools/call', { name: 'slow', arguments: { ms: 1 } });
    assert.deepEqual(inline.result?.['content'], [{ type: 'text', text: 'waited 1 ms' }]);
    const refused = await call(url, 'tools/call', { name: 'only_as_task', arguments: {} });
    assert.equal(refused.error?.code, -32021);
    assert.deepEqual(refused.error?.data, { requiredCapabilities: { extensions: { [TASKS]: {} } } });
    assert.equal((await call(url, 'tasks/get', { taskId: 'any' })).error?.code, -32021);
    const unknown = await call(url, 'tasks/get', { taskId: 'no-such-task' }, { capabilities: withTasks });
    assert.equal(unknown.error?.code, -32602);
  });

  test('mcpParamHeaders: listed with x-mcp-header, and a call whose header disagrees is refused', async () => {
    const listed = await call(url, 'tools/list');
    const routed = (listed.result?.['tools'] as Array<Record<string, any>>).find((tool) => tool['name'] === 'routed')!;
    assert.equal(routed['inputSchema']['properties']['region']['x-mcp-header'], 'Region');
    assert.equal(routed['_meta']?.['s2sp/mcp-param-headers'], undefined, 'the declaration itself is not listed');
    const params = { name: 'routed', arguments: { region: 'eu' } };
    const matching = await call(url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu' } });
    assert.deepEqual(matching.result?.['content'], [{ type: 'text', text: 'routed to eu' }]);
    for (const headers of [{ 'mcp-param-region': 'us' }, {}] as Array<Record<string, string>>) {
      const refused = await call(url, 'tools/call', params, { headers });
      assert.equal(refused.status, 400);
      assert.equal(refused.error?.code, -32020);
    }
  });

  test('mcpParamHeaders on a tool registered at run time: checked while it is registered, not after', async () => {
    server.mcp.registerTool({
      name: 'routed_later',
      description: 'Registered at run time; its region is mirrored into a header.',
      parameters: z.object({ region: z.string() }),
      _meta: mcpParamHeaders({ region: 'Region' }),
      handler: (args) => text(`later to ${String(args['region'])}`),
    });
    const params = { name: 'routed_later', arguments: { region: 'eu' } };
    const refused = await call(url, 'tools/call', params);
    assert.equal(refused.status, 400);
    assert.equal(refused.error?.code, -32020);
    const matching = await call(url, 'tools/call', params, { headers: { 'mcp-param-region': 'eu' } });
    assert.deepEqual(matching.result?.['content'], [{ type: 'text', text: 'later to eu' }]);
    // Registered again without the declaration: no header is required any more.
    server.mcp.registerTool({
      name: 'routed_later',
      description: 'Registered again, nothing mirrored.',
      parameters: z.object({ region: z.string() }),
      handler: (args) => text(`plain to ${String(args['region'])}`),
    });
    const plain = await call(url, 'tools/call', params);
    assert.deepEqual(plain.result?.['content'], [{ type: 'text', text: 'plain to eu' }]);
    server.mcp.removeTool('routed_later');
  });

  test("2025 era: progress travels on the call's own response stream, before its result", async () => {
    const post = (body: object, session?: string) =>
      fetch(`${url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(session ? { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' } : {}),
        },
        body: JSON.stringify(body),
      });
    const opened = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1.0.0' } },
    });
    const session = opened.headers.get('mcp-session-id')!;
    await opened.text();
    await (await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session)).text();
    // No standalone GET stream is open: what is not sent with the request reaches no one.
    const called = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'three_steps', arguments: {}, _meta: { progressToken: 'p1' } },
      },
      session,
    );
    const messages = (await called.text())
      .split('\n')
      // The priming event (for resumption) carries no data.
      .filter((line) => line.startsWith('data:') && line.slice(5).trim() !== '')
      .map((line) => JSON.parse(line.slice(5)) as { method?: string; id?: number; params?: { progress: number } });
    assert.deepEqual(
      messages.map((message) => message.method ?? `response ${message.id}`),
      ['notifications/progress', 'notifications/progress', 'notifications/progress', 'response 2'],
    );
    assert.deepEqual(
      messages.slice(0, 3).map((message) => message.params?.progress),
      [1, 2, 3],
    );
  });

  test('an unknown resource is ResourceNotFoundError, naming the URI', async () => {
    const missing = await call(url, 'resources/read', { uri: 'test://nothing-here' });
    assert.deepEqual(missing.error?.data, { uri: 'test://nothing-here' });
  });
});
