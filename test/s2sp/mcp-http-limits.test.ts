import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { mcpHttpLimitsFromEnv, serveMcp, type McpHttpLimits, type RunningMcpServer } from '@s2sp/core';
import {
  DEFAULT_MCP_HTTP_LIMITS,
  MCP_HTTP_LIMIT_ENV,
  resolveMcpHttpLimits,
} from '../../libs/s2sp/src/bootstrap/mcp-http-limits';
import { checkEnvTable } from '../support/env-table';
import { StatsServerModule } from '../../apps/stats-server/src/stats-server.module';
import { McpSessionRegistry, SessionLimitError } from '../../libs/s2sp/src/bootstrap/mcp-session-registry';
import { ManualClock } from '../support/manual-clock';
import { statsConfig } from '../support/stack';
import { bearerFor } from '../support/tokens';

const ODD_SESSION_IDS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
const MAX_BODY_BYTES = 64 * 1024;
const IDLE_TIMEOUT_MS = 400;

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'limits-test', version: '1.0.0' } },
};
const listTools = { jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} };

interface McpReply {
  status: number;
  sessionId: string | null;
  text: string;
}

async function mcp(
  server: RunningMcpServer,
  subject: string,
  init: { method?: string; sessionId?: string; body?: unknown },
): Promise<McpReply> {
  const headers: Record<string, string> = {
    authorization: await bearerFor({ audience: 'stats-server', subject }),
    accept: 'application/json, text/event-stream',
    'content-type': 'application/json',
    'mcp-protocol-version': '2025-06-18',
  };
  if (init.sessionId !== undefined) headers['mcp-session-id'] = init.sessionId;
  const response = await fetch(`${server.url}/mcp`, {
    method: init.method ?? 'POST',
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: response.status, sessionId: response.headers.get('mcp-session-id'), text: await response.text() };
}

async function openSession(server: RunningMcpServer, subject: string): Promise<string> {
  const reply = await mcp(server, subject, { body: initialize });
  assert.equal(reply.status, 200, reply.text);
  assert.ok(reply.sessionId);
  const initialized = await mcp(server, subject, {
    sessionId: reply.sessionId,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  assert.equal(initialized.status, 202, initialized.text);
  return reply.sessionId;
}

async function toolsListStatus(server: RunningMcpServer, subject: string, sessionId: string): Promise<number> {
  return (await mcp(server, subject, { sessionId, body: listTools })).status;
}

function startServer(limits: {
  maxSessionsPerCaller?: number;
  sessionIdleTimeoutMs?: number;
}): Promise<RunningMcpServer> {
  return serveMcp(StatsServerModule.forRoot(statsConfig([])), {
    name: 'limits-test',
    version: '0.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    logger: false,
    auth: { audience: 'stats-server' },
    mcpLimits: { maxBodyBytes: MAX_BODY_BYTES, ...limits },
  });
}

/** POST /mcp that announces `declaredBytes` and sends only `sentBytes` (or streams `sentBytes` chunked when declaredBytes is undefined). */
async function postRaw(
  server: RunningMcpServer,
  sentBytes: number,
  declaredBytes?: number,
): Promise<{ status: number; body: string }> {
  const authorization = await bearerFor({ audience: 'stats-server', subject: 'alice' });
  const url = new URL(`${server.url}/mcp`);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      authorization,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    if (declaredBytes !== undefined) headers['content-length'] = declaredBytes;
    const request = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    // The server answers and closes before the whole body is sent: a write error then is expected.
    request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
    const chunk = Buffer.alloc(16 * 1024, 0x20);
    let sent = 0;
    const pump = (): void => {
      while (sent < sentBytes) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', pump);
      }
      if (declaredBytes === undefined) request.end();
    };
    pump();
  });
}

describe('/mcp limits', () => {
  let server: RunningMcpServer;
  before(async () => {
    server = await startServer({ maxSessionsPerCaller: 2, sessionIdleTimeoutMs: 60_000 });
  });
  after(() => server.close());

  test('a body declared larger than the limit is refused with 413 before it is read', async () => {
    const reply = await postRaw(server, 16 * 1024, 100 * 1024 * 1024);
    assert.equal(reply.status, 413);
    const body = JSON.parse(reply.body) as { jsonrpc: string; error: { code: number; message: string }; id: null };
    assert.equal(body.jsonrpc, '2.0');
    assert.equal(body.id, null);
    assert.match(body.error.message, /larger than 65536 bytes/);
  });

  test('a chunked body is refused with 413 once it passes the limit, and the server stays up and small', async () => {
    const heapBefore = process.memoryUsage().heapUsed;
    const replies = await Promise.all([1, 2, 3, 4].map(() => postRaw(server, 32 * 1024 * 1024)));
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [413, 413, 413, 413],
    );
    // Unbounded, the four 32 MiB bodies would be held (as strings) at once.
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024);
    const session = await openSession(server, 'alice');
    assert.equal(await toolsListStatus(server, 'alice', session), 200);
  });

  test('an empty or unparseable body gets a JSON-RPC parse error (400)', async () => {
    for (const body of ['', '{"jsonrpc":']) {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          authorization: await bearerFor({ audience: 'stats-server', subject: 'alice' }),
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body,
      });
      assert.equal(response.status, 400);
      assert.equal(((await response.json()) as { error: { code: number } }).error.code, -32700);
    }
  });

  test('odd session ids are unknown sessions (404) on POST, GET and DELETE, never a 500', async () => {
    for (const id of ODD_SESSION_IDS) {
      for (const method of ['POST', 'GET', 'DELETE']) {
        const reply = await mcp(server, 'alice', {
          method,
          sessionId: id,
          body: method === 'POST' ? listTools : undefined,
        });
        assert.equal(reply.status, 404, `${method} with session id ${id}: ${reply.text}`);
        assert.equal((JSON.parse(reply.text) as { error: { code: number } }).error.code, -32001);
      }
    }
  });

  test("at the cap a caller's least recently used idle session is closed; other callers are not affected", async () => {
    const bobs = await openSession(server, 'bob');
    const first = await openSession(server, 'carol');
    const second = await openSession(server, 'carol');
    assert.equal(await toolsListStatus(server, 'carol', first), 200);
    // first was used last: second is the least recently used.
    const third = await openSession(server, 'carol');
    assert.equal(await toolsListStatus(server, 'carol', second), 404);
    assert.equal(await toolsListStatus(server, 'carol', first), 200);
    assert.equal(await toolsListStatus(server, 'carol', third), 200);
    assert.equal(await toolsListStatus(server, 'bob', bobs), 200);
  });

  test('at the cap with every session busy (notification streams open), initialize is refused with 429', async () => {
    const sessions = [await openSession(server, 'dave'), await openSession(server, 'dave')];
    const streams = new AbortController();
    const authorization = await bearerFor({ audience: 'stats-server', subject: 'dave' });
    try {
      for (const sessionId of sessions) {
        const stream = await fetch(`${server.url}/mcp`, {
          headers: {
            authorization,
            accept: 'text/event-stream',
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          },
          signal: streams.signal,
        });
        assert.equal(stream.status, 200);
      }
      const refused = await mcp(server, 'dave', { body: initialize });
      assert.equal(refused.status, 429);
      assert.match(refused.text, /Too many open MCP sessions/);
    } finally {
      streams.abort();
    }
  });

  test('concurrent initializes of one caller never leave it more sessions than the cap', async () => {
    const openSessions = async (): Promise<number> =>
      ((await (await fetch(`${server.url}/health`)).json()) as { mcpSessions: number }).mcpSessions;
    const before = await openSessions();
    const replies = await Promise.all([1, 2, 3, 4, 5, 6].map(() => mcp(server, 'frank', { body: initialize })));
    assert.ok(replies.some((reply) => reply.status === 200));
    assert.ok(
      replies.every((reply) => reply.status === 200 || reply.status === 429),
      replies.map((reply) => reply.status).join(','),
    );
    assert.ok((await openSessions()) - before <= 2);
  });

  test('DELETE ends a session; its id is then unknown', async () => {
    const session = await openSession(server, 'erin');
    assert.equal((await mcp(server, 'erin', { method: 'DELETE', sessionId: session })).status, 200);
    assert.equal(await toolsListStatus(server, 'erin', session), 404);
  });
});

describe('/mcp session idle timeout', () => {
  let server: RunningMcpServer;
  before(async () => {
    server = await startServer({ sessionIdleTimeoutMs: IDLE_TIMEOUT_MS });
  });
  after(() => server.close());

  test('a session unused for the idle timeout is gone (404), a fresh one works', async () => {
    const session = await openSession(server, 'alice');
    assert.equal(await toolsListStatus(server, 'alice', session), 200);
    await new Promise((resolve) => setTimeout(resolve, IDLE_TIMEOUT_MS * 2));
    assert.equal(await toolsListStatus(server, 'alice', session), 404);
    assert.equal(await toolsListStatus(server, 'alice', await openSession(server, 'alice')), 200);
  });
});

describe('McpSessionRegistry', () => {
  test('expires idle sessions, never busy ones, and frees them for closing', () => {
    const clock = new ManualClock();
    const registry = new McpSessionRegistry<string>(
      { sessionIdleTimeoutMs: 1_000, maxSessionsPerCaller: 5 },
      clock.now,
    );
    registry.add('idle', 'alice', 'idle session');
    registry.add('busy', 'alice', 'busy session');
    const end = registry.use(registry.find('busy').session!);
    clock.advance(1_000);
    assert.deepEqual(
      registry.removeExpired().map((session) => session.id),
      ['idle'],
    );
    assert.equal(registry.find('busy').session?.id, 'busy');
    end();
    clock.advance(999);
    assert.equal(registry.size, 1);
    clock.advance(1);
    const found = registry.find('busy');
    assert.equal(found.session, undefined);
    assert.equal(found.expired?.id, 'busy');
    assert.equal(registry.size, 0);
  });

  test('any id string is only a key', () => {
    const registry = new McpSessionRegistry<string>({ sessionIdleTimeoutMs: 1_000, maxSessionsPerCaller: 5 });
    for (const id of ODD_SESSION_IDS) assert.deepEqual(registry.find(id), {});
    registry.add('__proto__', 'alice', 'odd but fine');
    assert.equal(registry.find('__proto__').session?.value, 'odd but fine');
    assert.deepEqual(registry.find('constructor'), {});
  });

  test('at the cap: the least recently used idle session makes room; all busy: SessionLimitError', () => {
    const clock = new ManualClock();
    const registry = new McpSessionRegistry<string>(
      { sessionIdleTimeoutMs: 60_000, maxSessionsPerCaller: 2 },
      clock.now,
    );
    registry.add('a', 'alice', 'a');
    clock.advance(1);
    registry.add('b', 'alice', 'b');
    assert.deepEqual(registry.admit('bob'), []);
    assert.deepEqual(
      registry.admit('alice').map((session) => session.id),
      ['a'],
    );
    registry.add('c', 'alice', 'c');
    registry.use(registry.find('b').session!);
    registry.use(registry.find('c').session!);
    assert.throws(() => registry.admit('alice'), SessionLimitError);
  });
});

describe('the /mcp limits: the option given (an app passes mcpHttpLimitsFromEnv()), else the default', () => {
  const variables = Object.values(MCP_HTTP_LIMIT_ENV);

  test('each S2SP_MCP_* variable sets its limit through mcpHttpLimitsFromEnv; unset, the documented defaults', () => {
    checkEnvTable(() => resolveMcpHttpLimits(mcpHttpLimitsFromEnv()), variables, [
      {
        env: {},
        expect: (limits) =>
          assert.deepEqual(limits, {
            maxBodyBytes: 1_048_576,
            sessionIdleTimeoutMs: 1_800_000,
            maxSessionsPerCaller: 16,
            sseRetryMs: 1_000,
            listPageSize: 50,
            keepAliveTimeoutMs: 65_000,
          }),
      },
      ...Object.entries(MCP_HTTP_LIMIT_ENV).map(([limit, variable]) => ({
        env: { [variable]: '77' },
        expect: (limits: McpHttpLimits) => assert.deepEqual(limits, { ...DEFAULT_MCP_HTTP_LIMITS, [limit]: 77 }),
      })),
    ]);
  });

  test('the library reads no variable itself; a variable that is not a positive integer fails naming it', () => {
    checkEnvTable(() => resolveMcpHttpLimits({ maxBodyBytes: 2048 }), variables, [
      {
        env: { S2SP_MCP_MAX_BODY_BYTES: '4096', S2SP_MCP_LIST_PAGE_SIZE: '7' },
        expect: (limits) => assert.deepEqual(limits, { ...DEFAULT_MCP_HTTP_LIMITS, maxBodyBytes: 2048 }),
      },
    ]);
    assert.throws(() => resolveMcpHttpLimits({ listPageSize: 0 }), /mcpLimits.listPageSize must be a positive integer/);
    const failure = (): unknown => {
      try {
        return mcpHttpLimitsFromEnv();
      } catch (error) {
        return error;
      }
    };
    checkEnvTable(failure, variables, [
      {
        env: { S2SP_MCP_MAX_SESSIONS_PER_CALLER: '0' },
        expect: (error) => assert.match(String(error), /S2SP_MCP_MAX_SESSIONS_PER_CALLER/),
      },
    ]);
  });
});
