// S2spModule through serveMcp, for the framework-overhead benchmark (overhead-servers.ts).
import { Module } from '@nestjs/common';
import { McpController } from '@rekog/mcp-nest';
import { S2spModule, S2spResourceTool, serveMcp } from '@s2sp/core';
import { EchoController } from './echo.controller';
import type { StartedServer } from './overhead-servers';
import { GET_ROWS, ROWS } from './overhead-tools';

@McpController()
class S2spRowsController {
  @S2spResourceTool(GET_ROWS)
  getRows(): Array<Record<string, unknown>> {
    return ROWS.map((row) => ({ ...row }));
  }
}

/** S2spModule with its defaults (the embedded PostgreSQL store in `dataDir`), served by serveMcp. */
export async function startS2sp(sessions: boolean, dataDir: string): Promise<StartedServer> {
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
