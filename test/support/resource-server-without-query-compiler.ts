// Child process for test/s2sp/resource-server-memory.test.ts: a resource server
// that issues, serves, refuses, audits, summarizes and sweeps resources (every table read
// back from the database, the cache being off), then prints whether Prisma's
// query compiler (and Prisma's client runtime) was loaded; then makes one query through the
// Prisma client and prints it again (which shows that the check sees them loaded).
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  PrismaAuditSink,
  PrismaResourceStore,
  RESOURCE_STORE,
  ResourcePublisher,
  S2SP_DATABASE,
  S2spModule,
  type ResourceStore,
} from '@s2sp/core';
import { AuditRetention } from '../../libs/s2sp/src/audit/audit-retention';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { summarizeResourceActivity } from '../../libs/s2sp/src/activity/resource-activity-summary';
import type { S2spDatabase } from '@s2sp/database';

/** The generated client's query compiler is loaded from these modules (libs/database/src/generated/internal/class.ts). */
const QUERY_COMPILER_MODULE = /query_compiler/;

/** Prisma's client runtime (several MB of code): it loads with the first use of `database.client`. */
const PRISMA_CLIENT_RUNTIME = /@prisma[\\/]client[\\/]/;

function queryCompilerLoaded(): boolean {
  return Object.keys(require.cache).some((path) => QUERY_COMPILER_MODULE.test(path));
}

function prismaClientLoaded(): boolean {
  return Object.keys(require.cache).some((path) => PRISMA_CLIENT_RUNTIME.test(path));
}

async function main(): Promise<void> {
  const [databaseUrl] = process.argv.slice(2);
  let baseUrl = '';

  @Module({
    imports: [
      S2spModule.forRoot({
        publicBaseUrl: () => baseUrl,
        database: databaseUrl ? { url: databaseUrl } : { dataDir: ':memory:' },
        resourceCacheBytes: 0,
        sweepIntervalMs: 0,
      }),
    ],
  })
  class ResourceServerModule {}

  const app = await NestFactory.create(ResourceServerModule, { logger: ['error', 'warn'], bodyParser: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  const rows = Array.from({ length: 50 }, (_, i) => ({
    event: `event ${i}`,
    severity: i % 2 === 0 ? 'Moderate' : 'Severe',
    population: i * 10,
  }));
  const publisher = app.get(ResourcePublisher);
  const store = app.get<ResourceStore>(RESOURCE_STORE);
  const database = app.get<S2spDatabase>(S2SP_DATABASE);

  const served = await publisher.publish('alerts', splitRows(rows, ['event']));
  await publisher.publish('alerts', splitRows(rows, ['event'])); // left for the sweep
  const fetches: number[] = [];
  for (const body of [{ row_ids: [0, 1, 2], columns: ['severity'] }, {}]) {
    const response = await fetch(served, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    fetches.push(response.status);
    await response.arrayBuffer();
  }
  await new PrismaAuditSink(database).record({
    time: new Date().toISOString(),
    decision: 'allow',
    outcome: 'authorized',
    delegatedBy: [],
    protocol: 'mcp',
    service: 'resource-server',
    operation: 'get_alerts',
    requiredScopes: [],
    missingScopes: [],
    mutationClass: 'READ_ONLY',
  });
  await new AuditRetention(database.sql, { retentionMs: 1, sweepIntervalMs: 60_000, batchSize: 10 }).sweepOnce();
  // What the console's Resources view reads (s2sp://data-plane/activity), before the sweep empties the table,
  // once the resource left unfetched is written (issued on a reserved row, it is written after its answer).
  if (store instanceof PrismaResourceStore) await store.writesSettled();
  const activity = await summarizeResourceActivity(database.sql);
  const swept = await store.sweepExpired(new Date(Date.now() + 24 * 60 * 60 * 1000));
  const whileServing = queryCompilerLoaded();
  const clientWhileServing = prismaClientLoaded();

  await database.client.s2spResource.count();
  const report = {
    fetches,
    activity,
    swept,
    whileServing,
    afterPrismaQuery: queryCompilerLoaded(),
    clientWhileServing,
    clientAfterPrismaQuery: prismaClientLoaded(),
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(
    `resource-server-without-query-compiler failed: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
