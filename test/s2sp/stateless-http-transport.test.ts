// serveMcp with `sessions: false`: every POST served on its own by a server built for it and
// closed with its response (StatelessHttpTransport).
import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, test } from 'node:test';
import { Injectable, Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { McpContext, McpController, Tool } from '@rekog/mcp-nest';
import { McpSessionBroadcaster, mcpServerContext, serveMcp, type RunningMcpServer } from '@s2sp/core';
import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { eventually } from '../support/eventually';
import { connectMcp, textOf } from '../support/mcp-client';

/** What the `wait_for_abort` calls saw. */
@Injectable()
class AbortLog {
  started = 0;
  readonly reasons: string[] = [];
}

@McpController()
class StatelessToolsController {
  constructor(private readonly aborts: AbortLog) {}

  @Tool({ name: 'echo', description: 'Answers the text.', parameters: z.object({ text: z.string() }) })
  echo(@Payload() args: { text: string }) {
    return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
  }

  @Tool({ name: 'wait_for_abort', description: 'Answers when its request is aborted.', parameters: z.object({}) })
  async waitForAbort(@Payload() _args: Record<string, never>, @Ctx() context: McpContext) {
    const signal = mcpServerContext(context).mcpReq.signal;
    this.aborts.started++;
    await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
    this.aborts.reasons.push(signal.reason instanceof Error ? signal.reason.message : String(signal.reason));
    return { content: [{ type: 'text', text: 'aborted' }] };
  }
}

@Module({ controllers: [StatelessToolsController], providers: [AbortLog, McpSessionBroadcaster] })
class StatelessModule {}

let server: RunningMcpServer;
let mcpUrl: string;
/** The server built for each 2025-era request, as the MCP strategy binds it. */
const requestServers: McpServer[] = [];

before(async () => {
  server = await serveMcp(StatelessModule, {
    name: 'stateless-test',
    version: '1.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    sessions: false,
    logger: false,
  });
  mcpUrl = `${server.url}/mcp`;
  const bind = server.mcp.bindRequestHandlers.bind(server.mcp);
  server.mcp.bindRequestHandlers = (bound, ...rest) => {
    requestServers.push(bound);
    bind(bound, ...rest);
  };
});

after(async () => {
  await server.close();
});

/** Servers of 2025-era requests not closed yet. */
const openServers = () => requestServers.filter((each) => each.isConnected()).length;
/** Sessions the broadcaster would send notifications to: a stateless request's server is not one. */
const broadcastTargets = () => server.app.get(McpSessionBroadcaster).openSessions;

test('the SDK client lists and calls tools without a session, and each request’s server is closed after its answer', async () => {
  const client = await connectMcp(server.url, 'stateless-test', null);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), ['echo', 'wait_for_abort']);
    const results = await Promise.all(
      ['a', 'b', 'c'].map((text) => client.callTool({ name: 'echo', arguments: { text } })),
    );
    assert.deepEqual(results.map(textOf), ['echo: a', 'echo: b', 'echo: c']);
    assert.equal((client.transport as { sessionId?: string } | undefined)?.sessionId, undefined);
  } finally {
    await client.close();
  }
  await eventually('every request’s server closed', () => openServers() === 0);
  assert.equal(Error.stackTraceLimit, 10, 'the stack trace limit is left as it was');
});

test('resource subscriptions are refused without sessions: no stream would carry their updates', async () => {
  const serving = serveMcp(StatelessModule, {
    name: 'stateless-subscriptions',
    version: '1.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    sessions: false,
    resourceSubscriptions: true,
    logger: false,
  });
  // Were it served after all, it is closed before the assertion fails.
  await assert.rejects(
    serving.then((running) => running.close()),
    /resourceSubscriptions needs sessions/,
  );
});

test('a plain JSON POST is answered as JSON, without a session id', async () => {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' } },
    }),
  });
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
  assert.equal(response.headers.get('mcp-session-id'), null);
  const answer = (await response.json()) as { id: number; result: { content: Array<{ text: string }> } };
  assert.equal(answer.id, 7);
  assert.equal(answer.result.content[0].text, 'echo: x');
});

test('GET and DELETE are answered 405 with a JSON-RPC error: there is no stream or session', async () => {
  for (const method of ['GET', 'DELETE']) {
    const response = await fetch(mcpUrl, { method, headers: { accept: 'text/event-stream' } });
    assert.equal(response.status, 405, method);
    assert.equal(response.headers.get('allow'), 'POST');
    const body = (await response.json()) as { error: { code: number; message: string } };
    assert.equal(body.error.code, -32000);
    assert.match(body.error.message, /no sessions/);
  }
});

test('a request of the 2026 protocol era is served by the library’s stateless handler', async () => {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'echo',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: {
        name: 'echo',
        arguments: { text: 'modern' },
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  assert.equal(response.status, 200);
  const text = await response.text();
  assert.match(text, /echo: modern/);
});

test('a client that goes away mid-call closes its request’s server: the running handler sees its signal aborted', async () => {
  const aborts = server.app.get(AbortLog);
  const before = aborts.started;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'wait_for_abort', arguments: {} },
  });
  const request = http.request(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'content-length': Buffer.byteLength(body),
      'mcp-protocol-version': '2025-11-25',
    },
  });
  request.on('error', () => undefined);
  request.end(body);
  await eventually('the call started', () => aborts.started > before);
  assert.equal(openServers(), 1);
  assert.equal(broadcastTargets(), 0, 'no notification can reach a stateless request: its server is not tracked');
  request.destroy();
  await eventually('the handler saw the abort', () => aborts.reasons.length > 0);
  assert.match(aborts.reasons[0], /Connection closed/);
  await eventually('the request’s server closed', () => openServers() === 0);
});
