import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module } from '@nestjs/common';
import { McpController, Prompt, Resource, Tool } from '@rekog/mcp-nest';
import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { z } from 'zod';
import { connectMcp } from '../support/mcp-client';
import { HTTP_PLATFORMS, startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';

@McpController()
class ListsController {
  @Tool({ name: 'ping', description: 'Answers pong.', parameters: z.object({}) })
  ping() {
    return { content: [{ type: 'text', text: 'pong' }] };
  }

  @Prompt({ name: 'greet', description: 'A greeting.' })
  greet() {
    return { messages: [{ role: 'user', content: { type: 'text', text: 'hello' } }] };
  }

  @Resource({ uri: 'mem://readme', name: 'readme', mimeType: 'text/plain' })
  readme() {
    return { contents: [{ uri: 'mem://readme', mimeType: 'text/plain', text: 'read me' }] };
  }
}

@Module({ controllers: [ListsController] })
class ListsModule {}

interface SseEvent {
  id?: string;
  retry?: string;
  data: string;
}

/** The SSE events of a body read so far (complete events only). */
function sseEvents(text: string): SseEvent[] {
  return text
    .split(/\n\n/)
    .slice(0, -1)
    .map((block) => {
      const event: SseEvent = { data: '' };
      for (const line of block.split('\n')) {
        const [field, ...rest] = line.split(':');
        const value = rest.join(':').replace(/^ /, '');
        if (field === 'id') event.id = value;
        else if (field === 'retry') event.retry = value;
        else if (field === 'data') event.data += value;
      }
      return event;
    });
}

/** A request of the stateless 2026-07-28 protocol era; resolves to its JSON-RPC answer. */
async function modernRequest(
  mcpUrl: string,
  id: number,
  method: string,
  headers: Record<string, string> = {},
): Promise<any> {
  const response = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': method,
      ...headers,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 't', version: '1' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const text = await response.text();
  assert.equal(response.status, 200, `${method}: ${text}`);
  return /^\s*\{/.test(text)
    ? JSON.parse(text)
    : sseEvents(text)
        .map((event) => (event.data ? JSON.parse(event.data) : undefined))
        .find((message) => message?.id === id);
}

/** Reads an SSE response until an event carries the JSON-RPC answer to `id`, then stops. */
async function readUntilAnswer(response: Response, id: number): Promise<{ events: SseEvent[]; answer: any }> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
      const events = sseEvents(text);
      const answer = events
        .map((event) => (event.data ? JSON.parse(event.data) : undefined))
        .find((message) => message?.id === id);
      if (answer) return { events, answer };
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  throw new Error(`no answer to ${id} in: ${text}`);
}

describe('MCP over HTTP sessions: SSE priming and retry, caching hints, securitySchemes', () => {
  let server: RunningMcpServer;
  let mcpUrl: string;

  before(async () => {
    server = await serveMcp(ListsModule, {
      name: 'lists',
      version: '1.0.0',
      host: '127.0.0.1',
      port: 0,
      transport: 'http',
      logger: false,
      mcpLimits: { sseRetryMs: 2500 },
      listCacheHint: { ttlMs: 30_000, cacheScope: 'private' },
    });
    mcpUrl = `${server.url}/mcp`;
  });
  after(async () => {
    await server?.close();
  });

  const post = (body: unknown, headers: Record<string, string> = {}) =>
    fetch(mcpUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: JSON.stringify(body),
    });

  /** initialize then notifications/initialized: the initialize answer as read, and the session's headers. */
  const openSession = async () => {
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });
    const session = { 'mcp-session-id': init.headers.get('mcp-session-id')!, 'mcp-protocol-version': '2025-11-25' };
    const opened = await readUntilAnswer(init, 1);
    await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, session);
    return { status: init.status, contentType: init.headers.get('content-type') ?? '', opened, session };
  };

  test('every SSE stream of a session opens with a priming event (id, empty data, retry); Last-Event-ID replays what followed', async () => {
    const { status, contentType, opened, session } = await openSession();
    assert.equal(status, 200);
    assert.match(contentType, /text\/event-stream/);
    assert.equal(opened.events[0].data, '');
    assert.ok(opened.events[0].id, 'the priming event has an id');
    assert.equal(opened.events[0].retry, '2500');

    const list = await readUntilAnswer(await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' }, session), 2);
    const [priming] = list.events;
    assert.equal(priming.data, '');
    assert.equal(priming.retry, '2500');
    assert.deepEqual(
      list.answer.result.tools.map((tool: { name: string }) => tool.name),
      ['ping'],
    );

    // A client that lost the stream right after the priming event gets the answer again.
    const resumed = await fetch(mcpUrl, {
      headers: { accept: 'text/event-stream', ...session, 'last-event-id': priming.id! },
    });
    assert.equal(resumed.status, 200);
    assert.deepEqual((await readUntilAnswer(resumed, 2)).answer, list.answer);

    const unknown = await fetch(mcpUrl, {
      headers: { accept: 'text/event-stream', ...session, 'last-event-id': 'no-such-event' },
    });
    assert.equal(unknown.status, 400);
  });

  test("a session's notification stream (GET) opens at once, before anything is sent on it", async () => {
    const { session } = await openSession();

    const streams = new AbortController();
    try {
      // The headers come before any event: the first event read is the notification sent after they came
      // (a stream held back until its first write would open with the keep-alive comment instead).
      const stream = await fetch(mcpUrl, {
        headers: { accept: 'text/event-stream', ...session },
        signal: streams.signal,
      });
      assert.equal(stream.status, 200);
      server.mcp.registerTool({
        name: `runtime_${Date.now()}`,
        description: 'Registered once the stream is open.',
        parameters: z.object({}),
        handler: () => ({ content: [{ type: 'text', text: 'ok' }] }),
      });
      const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (sseEvents(text).length === 0) text += (await reader.read()).value ?? '';
      assert.equal(JSON.parse(sseEvents(text)[0].data).method, 'notifications/tools/list_changed');
    } finally {
      streams.abort();
    }
  });

  test('every list (tools, prompts, resources, resource templates) carries the same caching hint', async () => {
    const lists = {
      'tools/list': 'tools',
      'prompts/list': 'prompts',
      'resources/list': 'resources',
      'resources/templates/list': 'resourceTemplates',
    };
    let id = 100;
    for (const [method, key] of Object.entries(lists)) {
      const message = await modernRequest(mcpUrl, ++id, method);
      assert.ok(Array.isArray(message.result[key]), `${method}: ${JSON.stringify(message)}`);
      assert.equal(message.result.ttlMs, 30_000, method);
      assert.equal(message.result.cacheScope, 'private', method);
    }
  });

  test('without caller authentication, tools advertise securitySchemes noauth', async () => {
    const client = await connectMcp(server.url, 'noauth-test', null);
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools[0]._meta?.securitySchemes, [{ type: 'noauth' }]);
    } finally {
      await client.close();
    }
  });
});

for (const platform of HTTP_PLATFORMS) {
  test(`with caller authentication, every tool advertises the bearer token (oauth2), never noauth, in both protocol eras (${platform})`, async () => {
    const weather = await startWeather({ platform, logger: false });
    try {
      const client = await connectMcp(weather.url);
      const { tools } = await client.listTools();
      assert.ok(tools.length > 0);
      for (const tool of tools) assert.deepEqual(tool._meta?.securitySchemes, [{ type: 'oauth2' }], tool.name);
      await client.close();

      const modern = await modernRequest(`${weather.url}/mcp`, 1, 'tools/list', {
        authorization: await bearerFor({ audience: 'weather-server' }),
      });
      assert.deepEqual(
        modern.result.tools.map((tool: { name: string; _meta?: { securitySchemes?: unknown } }) => [
          tool.name,
          tool._meta?.securitySchemes,
        ]),
        tools.map((tool) => [tool.name, [{ type: 'oauth2' }]]),
      );
    } finally {
      await weather.close();
    }
  });
}
