// Plain @rekog/mcp-nest on Express, for the framework-overhead benchmark (overhead-servers.ts).
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpController, McpStrategy, StreamableHttpTransport, Tool } from '@rekog/mcp-nest';
import { EchoController } from './echo.controller';
import type { StartedServer } from './overhead-servers';
import { GET_ROWS, rowsResult } from './overhead-tools';

@McpController()
class PlainRowsController {
  @Tool(GET_ROWS)
  getRows() {
    return rowsResult();
  }
}

/** Plain @rekog/mcp-nest as its README sets it up: McpStrategy on the app's Express adapter. */
export async function startMcpNest(sessions: boolean): Promise<StartedServer> {
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
