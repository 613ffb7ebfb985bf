// The three servers the framework-overhead benchmark compares, each offering the same two tools:
// the raw MCP SDK on node:http, plain @rekog/mcp-nest on Express, and S2spModule through serveMcp
// (default store: the embedded PostgreSQL server), where `get_rows` is an S2SP resource tool.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Payload } from '@nestjs/microservices';
import { NodeStreamableHTTPServerTransport } from '@modelcontextprotocol/node';
import { McpServer } from '@modelcontextprotocol/server';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { S2spModule, S2spResourceTool, serveMcp } from '@s2sp/core';
import { ECHO, echoResult, GET_ROWS, ROWS, rowsResult } from './overhead-tools';

export type ServerKind = 'raw-sdk' | 'mcp-nest' | 's2sp';
export const SERVER_KINDS: readonly ServerKind[] = ['raw-sdk', 'mcp-nest', 's2sp'];

export interface StartedServer {
  url: string;
  close(): Promise<void>;
}

/** Starts `kind` on a free loopback port; `sessions` false serves every POST on its own (stateless). */
export async function startServer(kind: ServerKind, sessions: boolean, dataDir: string): Promise<StartedServer> {
  if (kind === 'raw-sdk') return await startRawSdk(sessions);
  if (kind === 'mcp-nest') return await startMcpNest(sessions);
  return await startS2sp(sessions, dataDir);
}

function rawSdkServer(): McpServer {
  const server = new McpServer({ name: 'raw-sdk', version: '1.0.0' });
  server.registerTool(ECHO.name, { description: ECHO.description, inputSchema: ECHO.parameters }, ({ text }) =>
    echoResult(text),
  );
  server.registerTool(GET_ROWS.name, { description: GET_ROWS.description, inputSchema: GET_ROWS.parameters }, () =>
    rowsResult(),
  );
  return server;
}

/** The SDK's documented pattern: a transport per session, or a server and transport per request. */
async function startRawSdk(sessions: boolean): Promise<StartedServer> {
  const transports = new Map<string, NodeStreamableHTTPServerTransport>();
  const handle = async (request: IncomingMessage, response: ServerResponse, body: unknown) => {
    if (!sessions) {
      const server = rawSdkServer();
      const transport = new NodeStreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      response.once('close', () => void server.close());
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
      return;
    }
    const id = request.headers['mcp-session-id'];
    let transport = typeof id === 'string' ? transports.get(id) : undefined;
    if (!transport) {
      transport = new NodeStreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (opened) => void transports.set(opened, transport!),
      });
      await rawSdkServer().connect(transport);
    }
    await transport.handleRequest(request, response, body);
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      void handle(request, response, text === '' ? undefined : JSON.parse(text));
    });
  });
  return await listening(server);
}

async function listening(server: Server): Promise<StartedServer> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

@McpController()
class EchoController {
  @Tool(ECHO)
  echo(@Payload() { text }: { text: string }) {
    return echoResult(text);
  }
}

@McpController()
class PlainRowsController {
  @Tool(GET_ROWS)
  getRows() {
    return rowsResult();
  }
}

/** Plain @rekog/mcp-nest as its README sets it up: McpStrategy on the app's Express adapter. */
async function startMcpNest(sessions: boolean): Promise<StartedServer> {
  const strategy = new McpStrategy({
    name: 'mcp-nest',
    version: '1.0.0',
    transports: [new StreamableHttpTransport({ statefulMode: sessions })],
  });
  @Module({ controllers: [EchoController, PlainRowsController] })
  class PlainModule {}
  const app = await NestFactory.create(PlainModule, { logger: false });
  strategy.setHttpAdapter(app.getHttpAdapter());
  app.connectMicroservice({ strategy });
  await app.startAllMicroservices();
  await app.listen(0, '127.0.0.1');
  return { url: (await app.getUrl()).replace('[::1]', '127.0.0.1'), close: () => app.close() };
}

@McpController()
class S2spRowsController {
  @S2spResourceTool(GET_ROWS)
  getRows(): Array<Record<string, unknown>> {
    return ROWS.map((row) => ({ ...row }));
  }
}

/** S2spModule with its defaults (the embedded PostgreSQL store in `dataDir`), served by serveMcp. */
async function startS2sp(sessions: boolean, dataDir: string): Promise<StartedServer> {
  let base = '';
  @Module({
    imports: [S2spModule.forRoot({ publicBaseUrl: () => base, database: { dataDir } })],
    controllers: [EchoController, S2spRowsController],
  })
  class S2spBenchModule {}
  const server = await serveMcp(S2spBenchModule, {
    name: 's2sp',
    version: '1.0.0',
    host: '127.0.0.1',
    port: 0,
    transport: 'http',
    sessions,
    logger: ['error', 'warn'],
  });
  base = server.url;
  return { url: server.url, close: () => server.shutdown() };
}
