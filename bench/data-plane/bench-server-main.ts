/**
 * The data-plane bench's server process (spawned by data-plane-bench.ts, so its RSS is its own):
 *   node dist/bench/data-plane/bench-server-main.js <before-answer|after-answer> <postgresql url|:memory:> <max rows>
 * Prints one JSON line `{ dataPlaneOrigin, bareOrigin }` once listening; exits when stdin closes.
 */
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { startBareJsonEndpoint } from './bare-json-endpoint';
import { BenchServerModule } from './bench-server.module';
import { BenchTableHolder } from './bench-table-holder';

const IDLE_CONNECTION_MS = 65_000;

async function main(): Promise<void> {
  const [mode, databaseUrl, maxRows] = process.argv.slice(2);
  if ((mode !== 'before-answer' && mode !== 'after-answer') || !databaseUrl || !maxRows) {
    throw new Error('usage: bench-server-main <before-answer|after-answer> <postgresql url|:memory:> <max rows>');
  }
  const table = new BenchTableHolder();
  let origin = '';
  const app = await NestFactory.create(
    BenchServerModule.forRoot({
      publicBaseUrl: () => origin,
      databaseUrl,
      resourceWriteMode: mode,
      maxRows: Number(maxRows),
      table,
    }),
    // The data plane reads its own request body, with its own size limit.
    { logger: ['error'], bodyParser: false },
  );
  // Runs of a big table leave the bench client's pooled connection idle for seconds: with Node's
  // default 5 s the server may close it just as the client reuses it ("fetch failed").
  app.getHttpServer().keepAliveTimeout = IDLE_CONNECTION_MS;
  await app.listen(0, '127.0.0.1');
  origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
  const bare = await startBareJsonEndpoint(table);
  bare.server.keepAliveTimeout = IDLE_CONNECTION_MS;
  process.stdout.write(`${JSON.stringify({ dataPlaneOrigin: origin, bareOrigin: bare.origin })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => {
    bare.server.close();
    void app.close().then(() => process.exit(0));
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
