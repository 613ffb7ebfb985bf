// The raw MCP SDK on node:http, for the framework-overhead benchmark (overhead-servers.ts).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { StartedServer } from './overhead-servers';
import { ECHO, echoResult, GET_ROWS, rowsResult } from './overhead-tools';

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
export async function startRawSdk(sessions: boolean): Promise<StartedServer> {
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

/** The SDK's documented entry of the 2026-07-28 era: a server per request, built by createMcpHandler. */
export async function startRawSdkModern(): Promise<StartedServer> {
  const handle = toNodeHandler(createMcpHandler(() => rawSdkServer(), { legacy: 'reject' }));
  return await listening(createServer((request, response) => void handle(request, response)));
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
