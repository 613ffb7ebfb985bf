import type { LoggerService, LogLevel } from '@nestjs/common';
import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { ConformanceServerModule } from './conformance-server.module';
import { ListMutations } from './list-mutations';

export interface ConformanceServerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  logger?: LoggerService | LogLevel[] | false;
}

/**
 * The server the official MCP conformance suite is run against: the suite's fixture tools,
 * resources and prompts, written with the packages' public API as any app would be.
 */
export async function startConformanceServer(options: ConformanceServerOptions): Promise<RunningMcpServer> {
  const running = await serveMcp(ConformanceServerModule, {
    name: 'conformance-server',
    version: '0.1.0',
    host: options.host,
    port: options.port,
    transport: 'http',
    resourceSubscriptions: true,
    tasks: {},
    ...(options.logger === undefined ? {} : { logger: options.logger }),
  });
  running.app.get(ListMutations).attach(running.mcp);
  return running;
}
