import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';
import { ResourceTableNotStoredError } from '../../libs/s2sp/src/store/resource-table-not-stored.error';
import type { ReservedResourceToken } from '../../libs/s2sp/src/store/resource-store.interface';
import { summarizeResourceActivity } from '../../libs/s2sp/src/activity/resource-activity-summary';
import type { SqlChannel, SqlQuery } from '../../libs/database/src/sql-channel';
import { FILL_RESERVED, RESERVE_RESOURCES } from '../../libs/s2sp/src/store/prisma-resource-store.sql';
import { ResourceTableAnalysis } from '../../libs/s2sp/src/store/resource-table-analysis';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { sampleResource, sampleRows } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];

type StoreDatabase = ConstructorParameters<typeof PrismaResourceStore>[0];

/** The database, counting the statements sent to it (a transaction counts as one). */
function countingStatements(db: StoreDatabase): { database: StoreDatabase; statements: () => number } {
  let statements = 0;
  const sql: SqlChannel = {
    query: (text, params) => {
      statements += 1;
      return db.sql.query(text, params);
    },
    transaction: (work) => {
      statements += 1;
      return db.sql.transaction(work);
    },
  };
  return { database: { sql }, statements: () => statements };
}

async function reservedRowCount(db: StoreDatabase): Promise<number> {
  const [row] = await db.sql.query<{ count: number }>(
    'SELECT count(*)::int AS count FROM s2sp_resource WHERE reserved',
  );
  return row.count;
}

async function started(store: PrismaResourceStore): Promise<PrismaResourceStore> {
  await store.onApplicationBootstrap();
  return store;
}

/** A started store that writes each resource on the next turn of the event loop, counting its statements. */
async function writingAtOnce(db: StoreDatabase) {
  const counted = countingStatements(db);
  const issuer = await started(new PrismaResourceStore(counted.database, { reservations: 16, writeDelayMs: 0 }));
  return { counted, issuer };
}

/** The relations a plan reads with a sequential scan, at any depth. */
function sequentiallyScanned(plan: { 'Node Type'?: string; 'Relation Name'?: string; Plans?: unknown[] }): string[] {
  const own = plan['Node Type'] === 'Seq Scan' && plan['Relation Name'] ? [plan['Relation Name']] : [];
  return [...own, ...(plan.Plans ?? []).flatMap((child) => sequentiallyScanned(child as typeof plan))];
}

/** The relations the statement prepared as `fill_plan` (FILL_RESERVED) reads whole, for the first five of `ids`. */
async function fillPlanScans(sql: SqlQuery, ids: readonly string[]): Promise<string[]> {
  const fills = ids.slice(0, 5).map((id) => ({ id, token_hash: `hash-${id}` }));
  const [explained] = await sql.query<{ 'QUERY PLAN': unknown }>(
    `EXPLAIN (FORMAT JSON) EXECUTE fill_plan('${JSON.stringify(fills)}', ARRAY[${fills.map((fill) => `'${fill.id}'`).join(',')}]::uuid[])`,
  );
  const plan = explained['QUERY PLAN'];
  const root = (typeof plan === 'string' ? JSON.parse(plan) : plan) as Array<{ Plan: object }>;
  return sequentiallyScanned(root[0].Plan);
}

function takeToken(store: PrismaResourceStore): ReservedResourceToken {
  const token = store.reserveToken();
  assert.ok(token, 'a reservation is ready once the store started');
  return token;
}

for (const kind of KINDS) {
  describe(`PrismaResourceStore reservations on ${kind}`, () => {
    const database = useSuiteDatabase(kind);
    const inOneMinute = () => new Date(Date.now() + 60_000);

    test('issuing on a reserved row waits for no statement; a claim in the issuing process writes and consumes it in one', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const counted = countingStatements(db);
      const store = await started(new PrismaResourceStore(counted.database, { reservations: 4, writeDelayMs: 60_000 }));
      assert.equal((await reservedRowCount(db)) >= 4, true, 'the first batch is committed while the app starts');
      const token = takeToken(store);
      const before = counted.statements();

      const saved = await store.save(sampleResource({ tokenHash: token.tokenHash, expiresAt: inOneMinute() }));
      assert.equal(counted.statements(), before, 'save sent nothing to the database');

      const claimed = await store.claim(token.tokenHash);
      assert.equal(counted.statements(), before + 1, 'the claim is one statement');
      assert.deepEqual(claimed?.info, saved);
      assert.deepEqual(claimed?.table.rows, sampleRows(6));
      const row = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(row.reserved, false);
      assert.equal(row.toolName, 'get_alerts', 'the claim wrote the metadata');
      assert.notEqual(row.consumedAt, null);
      assert.equal(await store.claim(token.tokenHash), null, 'single use');
      await store.beforeApplicationShutdown();
    });

    for (const [size, rows] of [
      ['one block', sampleRows(6)],
      ['several blocks', sampleRows(2_000)],
    ] as const) {
      test(`a reserved resource of ${size} is waited for on another replica until its write after the answer, then served whole`, async (t) => {
        const db = database.get(t);
        if (!db) return;
        const issuer = await started(new PrismaResourceStore(db, { reservations: 2, writeDelayMs: 200 }));
        const token = takeToken(issuer);
        const saved = await issuer.save(
          sampleResource({ tokenHash: token.tokenHash, table: ResourceTable.of(rows), expiresAt: inOneMinute() }),
        );

        const replica = new PrismaResourceStore(db);
        const startedAt = Date.now();
        assert.deepEqual(await replica.findLive(token.tokenHash), saved, 'the replica sees it once written');
        assert.ok(Date.now() - startedAt >= 100, 'and waited for the write');
        assert.deepEqual((await replica.claim(token.tokenHash))?.table.rows, rows);
        assert.equal(await issuer.claim(token.tokenHash), null, 'single use across replicas');
        await issuer.beforeApplicationShutdown();
      });
    }

    test('the writes after the answer of reserved one-block resources share one statement; a value the database refuses loses only its own resource', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const { counted, issuer } = await writingAtOnce(db);
      const issue = (caller: string) => {
        const token = takeToken(issuer);
        return issuer
          .save(sampleResource({ tokenHash: token.tokenHash, caller, expiresAt: inOneMinute() }))
          .then((saved) => ({ token, saved }));
      };
      const before = counted.statements();
      const issued = [await issue('agent-1'), await issue('agent-2'), await issue('agent-3'), await issue('agent-4')];
      await issuer.writesSettled();
      assert.equal(counted.statements(), before + 1, 'four writes after the answer, one statement');
      const replica = new PrismaResourceStore(db, { tableWaitMs: 50 });
      for (const { token, saved } of issued) assert.deepEqual(await replica.findLive(token.tokenHash), saved);

      const mixed = [await issue('agent-5'), await issue('agent-\u0000'), await issue('agent-6')];
      await issuer.writesSettled();
      assert.deepEqual(await replica.findLive(mixed[0].token.tokenHash), mixed[0].saved);
      assert.equal(await replica.findLive(mixed[1].token.tokenHash), null, 'the refused resource is gone: 404');
      assert.deepEqual((await replica.claim(mixed[2].token.tokenHash))?.table.rows, sampleRows(6));
      await issuer.beforeApplicationShutdown();
    });

    test('reserved one-block resources issued within writeDelayMs of the first are written in one statement; one claimed meanwhile is not written', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const counted = countingStatements(db);
      const issuer = await started(new PrismaResourceStore(counted.database, { reservations: 16, writeDelayMs: 300 }));
      const before = counted.statements();
      const issued: Array<{ token: ReservedResourceToken; saved: Awaited<ReturnType<PrismaResourceStore['save']>> }> =
        [];
      for (const caller of ['agent-1', 'agent-2', 'agent-3']) {
        const token = takeToken(issuer);
        const saved = await issuer.save(
          sampleResource({ tokenHash: token.tokenHash, caller, expiresAt: inOneMinute() }),
        );
        issued.push({ token, saved });
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const [first, claimedAtOnce, last] = issued;
      assert.deepEqual((await issuer.claim(claimedAtOnce.token.tokenHash))?.table.rows, sampleRows(6));
      assert.equal(counted.statements(), before + 1, 'nothing written yet but the claim');

      await issuer.writesSettled();
      assert.equal(counted.statements(), before + 2, 'the two unclaimed resources in one statement');
      const replica = new PrismaResourceStore(db, { tableWaitMs: 50 });
      for (const { token, saved } of [first, last]) assert.deepEqual(await replica.findLive(token.tokenHash), saved);
      assert.equal(await replica.claim(claimedAtOnce.token.tokenHash), null, 'claimed once, in the issuing process');

      const alone = takeToken(issuer);
      await issuer.save(sampleResource({ tokenHash: alone.tokenHash, expiresAt: inOneMinute() }));
      await new Promise((resolve) => setTimeout(resolve, 50)); // its write waits for the window to end
      assert.deepEqual((await issuer.claim(alone.tokenHash))?.table.rows, sampleRows(6));
      await issuer.writesSettled();
      assert.equal(counted.statements(), before + 3, 'a window whose every resource was claimed writes nothing');
      await issuer.beforeApplicationShutdown();
    });

    test('shutdown writes the gathered writes at once instead of waiting for their window to end', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const issuer = await started(new PrismaResourceStore(db, { reservations: 4, writeDelayMs: 600_000 }));
      const token = takeToken(issuer);
      const saved = await issuer.save(sampleResource({ tokenHash: token.tokenHash, expiresAt: inOneMinute() }));
      await new Promise((resolve) => setTimeout(resolve, 20)); // its write is waiting for the window to end
      const tooLate = new Promise<'waited'>((resolve) => setTimeout(resolve, 10_000, 'waited').unref());
      assert.equal(await Promise.race([issuer.beforeApplicationShutdown(), tooLate]), undefined);
      assert.deepEqual(await new PrismaResourceStore(db).findLive(token.tokenHash), saved);
    });

    test('claims racing the batched writes after the answer: every resource served once, in its process or on a replica', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const issuer = await started(new PrismaResourceStore(db, { reservations: 32, writeDelayMs: 10 }));
      const issued: string[] = [];
      for (let index = 0; index < 120; index++) {
        const tokenHash = issuer.reserveToken()?.tokenHash ?? sampleResource().tokenHash;
        await issuer.save(sampleResource({ tokenHash, expiresAt: inOneMinute() }));
        issued.push(tokenHash);
        if (index % 7 === 0) await new Promise((resolve) => setTimeout(resolve, index % 5));
      }
      const claimedByIssuer = issued.filter((_, index) => index % 2 === 0);
      await Promise.all(
        claimedByIssuer.map(async (tokenHash, index) => {
          await new Promise((resolve) => setTimeout(resolve, index % 30));
          assert.deepEqual((await issuer.claim(tokenHash))?.table.rows, sampleRows(6));
        }),
      );
      await issuer.writesSettled();
      const replica = new PrismaResourceStore(db, { tableWaitMs: 2_000 });
      for (const tokenHash of issued) {
        const claimed = await replica.claim(tokenHash);
        if (claimedByIssuer.includes(tokenHash)) assert.equal(claimed, null, 'single use');
        else assert.deepEqual(claimed?.table.rows, sampleRows(6), 'written and served');
      }
      await issuer.beforeApplicationShutdown();
    });

    test('blocks of a megabyte and more in all go in a statement of their own', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const { counted, issuer } = await writingAtOnce(db);
      const wide = ResourceTable.of([{ event: 'Wind', note: 'n'.repeat(600_000) }]);
      const before = counted.statements();
      const tokens = [takeToken(issuer), takeToken(issuer), takeToken(issuer)];
      for (const token of tokens)
        await issuer.save(sampleResource({ tokenHash: token.tokenHash, table: wide, expiresAt: inOneMinute() }));
      await issuer.writesSettled();
      assert.equal(counted.statements(), before + 2, 'the first two (1.2 M characters) together, the third alone');
      const replica = new PrismaResourceStore(db);
      for (const token of tokens) assert.equal((await replica.claim(token.tokenHash))?.table.rowCount, 1);
      await issuer.beforeApplicationShutdown();
    });

    test('a reserved resource never written (its process died) is not served: another replica fails clearly, consuming nothing', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const issuer = await started(new PrismaResourceStore(db, { reservations: 2, writeDelayMs: 60_000 }));
      const token = takeToken(issuer);
      await issuer.save(sampleResource({ tokenHash: token.tokenHash, expiresAt: inOneMinute() }));

      const replica = new PrismaResourceStore(db, { tableWaitMs: 50 });
      await assert.rejects(replica.findLive(token.tokenHash), ResourceTableNotStoredError);
      await assert.rejects(replica.claim(token.tokenHash), ResourceTableNotStoredError);
      const summary = await summarizeResourceActivity(db.sql);
      assert.equal(
        summary.some((entry) => entry.toolName === ''),
        false,
        'reserved rows are not counted as issued resources',
      );
      await issuer.beforeApplicationShutdown(); // writes it now
      assert.deepEqual((await replica.claim(token.tokenHash))?.table.rows, sampleRows(6));
    });

    test('a claim that fails on the database leaves the write after the answer going: the resource is not lost', async (t) => {
      const db = database.get(t);
      if (!db) return;
      let failNext = false;
      const flaky: StoreDatabase = {
        sql: {
          query: (text, params) => {
            if (!failNext) return db.sql.query(text, params);
            failNext = false;
            return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
          },
          transaction: (work) => db.sql.transaction(work),
        },
      };
      const issuer = await started(new PrismaResourceStore(flaky, { reservations: 2, writeDelayMs: 20 }));
      const token = takeToken(issuer);
      await issuer.save(sampleResource({ tokenHash: token.tokenHash, expiresAt: inOneMinute() }));
      failNext = true;
      await assert.rejects(issuer.claim(token.tokenHash), /ECONNREFUSED/);
      await issuer.writesSettled();
      assert.deepEqual((await new PrismaResourceStore(db).claim(token.tokenHash))?.table.rows, sampleRows(6));
      await issuer.beforeApplicationShutdown();
    });

    test('filling reserved rows finds them by primary key, however many rows the table holds', async (t) => {
      const db = database.get(t);
      if (!db) return;
      // Joined only on the JSON input (which the planner assumes holds a hundred rows), the fill read
      // the whole table once per statement: its cost grew with every resource stored.
      const ids = Array.from({ length: 3000 }, () => randomUUID());
      const now = new Date();
      await db.sql.query(RESERVE_RESOURCES, [ids, ids.map((id) => `hash-${id}`), now, inOneMinute()]);
      await db.sql.query('ANALYZE s2sp_resource');
      try {
        for (const planCacheMode of ['force_custom_plan', 'force_generic_plan']) {
          const scanned: string[] = await db.sql.transaction(async (sql) => {
            await sql.query(`SET LOCAL plan_cache_mode = ${planCacheMode}`);
            await sql.query(`PREPARE fill_plan(jsonb, uuid[]) AS ${FILL_RESERVED}`);
            const relations = await fillPlanScans(sql, ids);
            await sql.query('DEALLOCATE fill_plan');
            return relations;
          });
          assert.deepEqual(scanned, [], `${planCacheMode}: no relation is read whole`);
        }
      } finally {
        await db.sql.query('DELETE FROM s2sp_resource WHERE id = ANY($1::uuid[])', [ids]);
      }
    });

    test('a fill planned while the table was nearly empty stops reading it whole once the rows filled have it analyzed', async (t) => {
      const db = database.get(t);
      if (!db) return;
      // A connection keeps the generic plan of a prepared statement, made for the table as it was then,
      // until the table's statistics change: a sequential scan, cheapest for a few pages, read the
      // whole table once per fill as it grew, until autovacuum first analyzed it.
      await db.sql.query('DELETE FROM s2sp_resource');
      await db.sql.query('VACUUM s2sp_resource');
      const ids = Array.from({ length: 3000 }, () => randomUUID());
      try {
        const [before, after] = await db.sql.transaction(async (sql) => {
          // The generic plan, made now, for an empty table, and kept.
          await sql.query('SET LOCAL plan_cache_mode = force_generic_plan');
          await sql.query(`PREPARE fill_plan(jsonb, uuid[]) AS ${FILL_RESERVED}`);
          await sql.query(`EXECUTE fill_plan('[]', '{}')`);
          await sql.query(RESERVE_RESOURCES, [ids, ids.map((id) => `hash-${id}`), new Date(), inOneMinute()]);
          const stale = await fillPlanScans(sql, ids);
          await new ResourceTableAnalysis(sql, [2000]).filled(2000);
          const replanned = await fillPlanScans(sql, ids);
          await sql.query('DEALLOCATE fill_plan');
          return [stale, replanned];
        });
        assert.deepEqual(before, ['s2sp_resource'], 'the plan made for the empty table reads it whole');
        assert.deepEqual(after, [], 'analyzed, the same statement finds the rows by primary key');
      } finally {
        await db.sql.query('DELETE FROM s2sp_resource WHERE id = ANY($1::uuid[])', [ids]);
      }
    });

    test('shutdown deletes the reservations it did not hand out; 0 reservations inserts each row before the answer', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const reservedBefore = await reservedRowCount(db);
      const store = await started(new PrismaResourceStore(db, { reservations: 3 }));
      assert.equal(await reservedRowCount(db), reservedBefore + 3);
      await store.beforeApplicationShutdown();
      assert.equal(await reservedRowCount(db), reservedBefore);
      assert.equal(store.reserveToken(), undefined, 'a stopping store hands out nothing');
      await new Promise((resolve) => setTimeout(resolve, 50));
      assert.equal(await reservedRowCount(db), reservedBefore, 'and reserves nothing more');

      const counted = countingStatements(db);
      const unreserved = await started(new PrismaResourceStore(counted.database, { reservations: 0 }));
      assert.equal(unreserved.reserveToken(), undefined);
      const resource = sampleResource();
      const saved = await unreserved.save(resource);
      assert.equal(counted.statements(), 1, 'the row and its one block, before save resolves');
      assert.deepEqual(await new PrismaResourceStore(db).findLive(resource.tokenHash), saved);
      assert.throws(
        () => new PrismaResourceStore(db, { reservations: -1 }),
        /reservations must be a non-negative integer/,
      );
    });
  });
}
