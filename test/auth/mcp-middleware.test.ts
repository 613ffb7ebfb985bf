import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module, UseGuards, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { McpController, McpRawRequest, McpStrategy, StreamableHttpTransport, Tool, ToolScopes } from '@rekog/mcp-nest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { z } from 'zod';
import {
  AuthModule,
  AuthorizationGate,
  Caller,
  InMemoryAuditSink,
  mcpHttpAuthMiddleware,
  MutationClass,
  RequireScopes,
  TokenMinter,
  type CallerIdentity,
  type RequestUser,
} from '../../libs/auth/src';
import { McpToolAuthGuard } from '../../libs/s2sp/src';
import { tempDir } from './auth-fixtures';

const text = (value: unknown) => ({ content: [{ type: 'text' as const, text: JSON.stringify(value) }] });

@McpController()
class WeatherToolsController {
  /** Authorized by @rekog/mcp-nest itself, from the req.user the middleware set. */
  @Tool({ name: 'whoami', description: 'Echo the authenticated user as mcp-nest sees it.', parameters: z.object({}) })
  @ToolScopes(['weather:read'])
  whoami(@Payload() _args: unknown, @McpRawRequest() request: { user?: RequestUser }) {
    const user = request.user!;
    return text({ sub: user.sub, scope: user.scope, scopes: user.scopes });
  }

  /** Authorized by the library's guard: scopes, approval and audit. */
  @Tool({ name: 'purge_alerts', description: 'Delete cached alerts.', parameters: z.object({}) })
  @UseGuards(McpToolAuthGuard)
  @RequireScopes('weather:admin')
  @MutationClass(MutationClass.DESTRUCTIVE)
  purge() {
    return text({ purged: true });
  }

  @Tool({ name: 'caller', description: 'Echo the caller identity.', parameters: z.object({}) })
  @UseGuards(McpToolAuthGuard)
  @RequireScopes('weather:read')
  caller(@Payload() _args: unknown, @Caller() caller: CallerIdentity) {
    return text({ subject: caller.subject, audience: caller.audience, delegatedBy: caller.delegatedBy });
  }
}

/**
 * The bootstrap serveMcp() does, plus the one hook it lacks: middleware on /mcp,
 * registered after NestFactory.create and before the MCP transport mounts its route.
 */
async function serveMcpWithAuth(
  dataDir: string,
  audit: InMemoryAuditSink,
): Promise<{ app: INestApplication; url: string }> {
  @Module({
    imports: [
      AuthModule.forRoot({
        audience: 'weather-server',
        dataDir,
        auditSink: { useValue: audit },
        auditDelivery: { mode: 'blocking' },
      }),
    ],
    controllers: [WeatherToolsController],
  })
  class WeatherToolsModule {}
  const app = await NestFactory.create(WeatherToolsModule, { bodyParser: false, logger: false });
  app.use('/mcp', mcpHttpAuthMiddleware(app.get(AuthorizationGate), 'weather-server'));
  const mcp = new McpStrategy({
    name: 'weather-test',
    version: '0.0.1',
    transports: [new StreamableHttpTransport({ endpoint: '/mcp', statefulMode: true })],
  });
  mcp.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy: mcp });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as { port: number };
  return { app, url: `http://127.0.0.1:${port}` };
}

describe('mcpHttpAuthMiddleware in front of @rekog/mcp-nest', () => {
  const dir = tempDir();
  const audit = new InMemoryAuditSink();
  let server: { app: INestApplication; url: string };
  let minter: TokenMinter;
  const clients: Client[] = [];

  async function connect(token?: string): Promise<Client> {
    const client = new Client({ name: 'auth-test', version: '1.0.0' });
    const transport = new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: token ? { headers: { authorization: `Bearer ${token}` } } : {},
    });
    await client.connect(transport);
    clients.push(client);
    return client;
  }
  const tokenFor = (scopes: string[], audience = 'weather-server') =>
    minter.mint({ subject: 'alice', scopes, audience, ttlSeconds: 300 });
  const textOf = (result: any): any => JSON.parse(result.content[0].text);

  before(async () => {
    server = await serveMcpWithAuth(dir.path, audit);
    minter = server.app.get(TokenMinter);
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
    await server?.app.close();
    dir.remove();
  });

  test('no or bad token: 401 with WWW-Authenticate and a detail-free JSON-RPC error; the MCP client cannot connect', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    for (const authorization of [
      undefined,
      'Bearer not-a-token',
      `Bearer ${await tokenFor(['weather:read'], 'stats-server')}`,
    ]) {
      const response = await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify(initialize),
      });
      assert.equal(response.status, 401);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="weather-server"/);
      assert.deepEqual(await response.json(), {
        jsonrpc: '2.0',
        error: { code: 4001, message: 'Invalid or expired credentials.', data: {} },
        id: null,
      });
    }
    await assert.rejects(connect(), /401|Unauthorized|credentials/i);
  });

  test('req.user has the shape mcp-nest checks: @ToolScopes passes with the scope and fails without it', async () => {
    const reader = await connect(await tokenFor(['weather:read', 'stats:chart']));
    assert.deepEqual(textOf(await reader.callTool({ name: 'whoami', arguments: {} })), {
      sub: 'alice',
      scope: 'weather:read stats:chart',
      scopes: ['weather:read', 'stats:chart'],
    });

    const outsider = await connect(await tokenFor(['stats:chart']));
    const listed = (await outsider.listTools()).tools.map((tool) => tool.name);
    assert.ok(!listed.includes('whoami'), 'mcp-nest hides the tool from a caller without the scope');
    await assert.rejects(outsider.callTool({ name: 'whoami', arguments: {} }), /requires scopes: weather:read/);
  });

  test('McpToolAuthGuard: scopes, approval and audit for tools; @Caller() gives the identity', async () => {
    const admin = await connect(await tokenFor(['weather:read', 'weather:admin']));
    assert.deepEqual(textOf(await admin.callTool({ name: 'caller', arguments: {} })), {
      subject: 'alice',
      audience: 'weather-server',
      delegatedBy: [],
    });

    const purge = await admin.callTool({ name: 'purge_alerts', arguments: {} });
    assert.equal(purge.isError, true);
    assert.match((purge.content as Array<{ text: string }>)[0].text, /^Approval required: DESTRUCTIVE/);

    const reader = await connect(await tokenFor(['weather:read']));
    const denied = await reader.callTool({ name: 'purge_alerts', arguments: {} });
    assert.equal(denied.isError, true);
    assert.equal((denied.content as Array<{ text: string }>)[0].text, 'Missing required scope: weather:admin.');

    const toolEvents = audit.events.filter((e) => e.operation === 'purge_alerts');
    assert.deepEqual(
      toolEvents.map((e) => e.outcome),
      ['approval-denied', 'missing-scopes'],
    );
    assert.ok(toolEvents.every((e) => e.protocol === 'mcp' && e.service === 'weather-server' && e.subject === 'alice'));
    assert.ok(
      audit.events.some((e) => e.operation === 'POST /mcp' && e.decision === 'allow'),
      'the middleware audits the HTTP request too',
    );
    assert.ok(audit.events.some((e) => e.operation === 'POST /mcp' && e.authenticationFailure === 'wrong-audience'));
  });
});
