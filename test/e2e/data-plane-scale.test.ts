// A million-row resource served and consumed with both processes' heaps capped:
// the data plane streams its answer and the consumer reads it as it arrives.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import {
  openPostgresTestDatabase,
  postgresSkipReason,
  postgresTestUrl,
  type PostgresTestDatabase,
} from '../support/databases';
import { expectedChecksum } from '../support/big-table';

const ROWS = 1_000_000;
const HEAP_MB = 512;

function run(script: string, args: string[]): ChildProcess {
  return spawn(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, join(__dirname, '..', 'support', script), ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
}

async function firstLine(child: ChildProcess): Promise<Record<string, unknown>> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  while (!stdout.includes('\n')) {
    const [event] = await Promise.race([
      once(child.stdout!, 'data').then(() => ['data']),
      once(child, 'exit').then(() => ['exit']),
    ]);
    if (event === 'exit' && !stdout.includes('\n'))
      throw new Error(`child exited (${child.exitCode}): ${stderr.slice(-2000)}`);
  }
  return JSON.parse(stdout.slice(0, stdout.indexOf('\n'))) as Record<string, unknown>;
}

describe(`a ${ROWS.toLocaleString('en')}-row resource, server and consumer heaps capped at ${HEAP_MB} MB`, () => {
  let database: PostgresTestDatabase | null = null;
  const servers: ChildProcess[] = [];

  before(async () => {
    database = await openPostgresTestDatabase();
  });

  after(async () => {
    for (const server of servers) server.kill();
    await database?.close();
  });

  for (const format of ['json', 'arrow'] as const) {
    test(`served and consumed whole, as ${format}`, async (t) => {
      if (!database) {
        t.skip(await postgresSkipReason());
        return;
      }
      const databaseUrl = new URL(postgresTestUrl());
      databaseUrl.searchParams.set('schema', database.schema);
      const server = run('big-table-server.js', [databaseUrl.toString(), String(ROWS), '1']);
      servers.push(server);
      const [resourceUrl] = (await firstLine(server)).urls as string[];

      const result = await firstLine(run('big-table-consumer.js', [resourceUrl, format]));
      assert.equal(result.rows, ROWS);
      assert.equal(result.checksum, expectedChecksum(ROWS));
      assert.equal(server.exitCode, null, 'the server is still up');
      t.diagnostic(`consumer heap after reading: ${result.heapUsedMb} MB`);
      server.kill();
    });
  }
});
