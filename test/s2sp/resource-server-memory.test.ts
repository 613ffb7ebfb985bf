// A resource server never loads Prisma's query compiler (WebAssembly that stays
// resident, 70–80 MiB once used), nor Prisma's client runtime: docs/data-plane-memory.md.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { postgresOrSkip, postgresTestUrl, withAdminClient } from '../support/databases';

const SERVER = join(__dirname, '..', 'support', 'resource-server-without-query-compiler.js');

interface Report {
  fetches: number[];
  activity: Array<{ toolName: string; issued: number; consumed: number }>;
  swept: number;
  whileServing: boolean;
  afterPrismaQuery: boolean;
  clientWhileServing: boolean;
  clientAfterPrismaQuery: boolean;
}

async function runServer(databaseUrl: string | undefined): Promise<Report> {
  const { stdout } = await promisify(execFile)(process.execPath, [SERVER, ...(databaseUrl ? [databaseUrl] : [])], {
    timeout: 60_000,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as Report;
}

describe("a resource server's data plane and audits run without Prisma's query compiler", () => {
  function assertServedWithoutCompiler(report: Report): void {
    assert.deepEqual(report.fetches, [200, 404], 'served once, then refused');
    assert.deepEqual(
      report.activity.map((row) => [row.toolName, row.issued, row.consumed]),
      [['alerts', 2, 1]],
      'the activity summary (the console’s Resources view) was read: both resources, one consumed',
    );
    assert.equal(report.swept, 2, 'both resources expired and were swept');
    assert.equal(report.whileServing, false, 'no query compiler while serving');
    assert.equal(report.afterPrismaQuery, true, 'one query through the Prisma client loads it: the check sees it');
    assert.equal(report.clientWhileServing, false, "Prisma's client runtime is not even loaded while serving");
    assert.equal(report.clientAfterPrismaQuery, true, 'the first use of database.client loads it');
  }

  test('on PGlite (in memory): issue, serve from the database, refuse a second fetch, audit, retain and sweep', async () => {
    assertServedWithoutCompiler(await runServer(undefined));
  });

  test('on PostgreSQL (a schema of its own): the same', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const schema = `s2sp_memory_${randomBytes(5).toString('hex')}`;
    const url = new URL(postgresTestUrl());
    url.searchParams.set('schema', schema);
    try {
      assertServedWithoutCompiler(await runServer(url.toString()));
    } finally {
      await withAdminClient((admin) => admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`));
    }
  });
});
