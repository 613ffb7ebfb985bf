// Child process for data-plane scale tests: an S2SP resource server holding
// `rows` rows, run with a capped heap. Publishes `resources` tables, prints
// {"urls": [...]} on one stdout line, then serves until killed.
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ResourcePublisher, S2spModule } from '@s2sp/core';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { bigTableRow } from './big-table';

async function main(): Promise<void> {
  const [databaseUrl, rowsArgument, resourcesArgument] = process.argv.slice(2);
  const rows = Number(rowsArgument);
  const limits = {
    maxRows: rows,
    maxResponseBytes: 2 ** 31 - 1,
    maxRowIdsPerFetch: rows,
    maxRequestBytes: 16 * 1024 * 1024,
  };
  let baseUrl = '';

  @Module({
    imports: [
      S2spModule.forRoot({ publicBaseUrl: () => baseUrl, database: { url: databaseUrl }, limits, sweepIntervalMs: 0 }),
    ],
  })
  class BigTableServerModule {}

  const app = await NestFactory.create(BigTableServerModule, { logger: ['error', 'warn'], bodyParser: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const publisher = app.get(ResourcePublisher);
  const urls: string[] = [];
  for (let resource = 0; resource < Number(resourcesArgument); resource++) {
    const table = Array.from({ length: rows }, (_, i) => bigTableRow(i));
    urls.push(await publisher.publish('big_table', splitRows(table, ['event'])));
  }
  process.stdout.write(
    `${JSON.stringify({ urls, heapUsedMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20) })}\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`big-table-server failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
