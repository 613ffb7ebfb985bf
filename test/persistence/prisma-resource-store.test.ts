import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore, type PrismaResourceStoreOptions } from '../../libs/s2sp/src/store/prisma-resource-store';
import { ResourceTable } from '../../libs/s2sp/src/store/resource-table';
import { ResourceTableNotStoredError } from '../../libs/s2sp/src/store/resource-table-not-stored.error';
import type { SqlChannel } from '../../libs/database/src/sql-channel';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { eventually } from '../support/eventually';
import { sampleResource, sampleRows } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const BEFORE_ANSWER = { writeMode: 'before-answer' } as const;

type StoreDatabase = ConstructorParameters<typeof PrismaResourceStore>[0];

/** The database as an issuing process sees it, except that its transactions (the table writes) start only once released. */
function withheldTransactions(db: StoreDatabase): { database: StoreDatabase; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const sql: SqlChannel = {
    query: (text, params) => db.sql.query(text, params),
    transaction: async (work) => {
      await released;
      return db.sql.transaction(work);
    },
  };
  return { database: { sql }, release };
}

/** The database, except that its first `failures` transactions fail as when the server cannot be reached. */
function outageOfTransactions(db: StoreDatabase, failures: number): { database: StoreDatabase; refused: () => number } {
  let refused = 0;
  const sql: SqlChannel = {
    query: (text, params) => db.sql.query(text, params),
    transaction: async (work) => {
      if (refused < failures) {
        refused += 1;
        throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
      }
      return db.sql.transaction(work);
    },
  };
  return { database: { sql }, refused: () => refused };
}

async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  const settled = promise.then(
    () => true,
    () => true,
  );
  return Promise.race([settled, new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
}

function encodedLengthOf(rows: ReadonlyArray<Record<string, unknown>>): number {
  const table = ResourceTable.of(rows);
  for (const _block of table.encode());
  return table.encodedLength!;
}

/** 20,000 rows whose last one cannot be encoded: the failure comes after earlier blocks were written. */
function rowsFailingLate(): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = sampleRows(20_000);
  rows[19_999] = { ...rows[19_999], big: 1n };
  return rows;
}

for (const kind of KINDS) {
  describe(`PrismaResourceStore on ${kind}`, () => {
    const database = useSuiteDatabase(kind);
    const now = new Date();
    const inOneMinute = new Date(now.getTime() + 60_000);
    /** A resource whose table is stored in several blocks, hence written after the answer `after-answer`. */
    const multiBlockResource = () =>
      sampleResource({ table: ResourceTable.of(sampleRows(200)), expiresAt: inOneMinute });

    test('save then findLive returns the metadata, in this process and from the database; unknown token hashes are null', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);

      assert.match(saved.id, /^[0-9a-f-]{36}$/);
      assert.equal(saved.toolName, resource.toolName);
      assert.deepEqual(saved.columns, resource.columns);
      assert.deepEqual(saved.abstractDomains, resource.abstractDomains);
      assert.deepEqual(saved.bodyDomains, resource.bodyDomains);
      assert.equal(saved.rowCount, 6);
      assert.equal(saved.caller, 'agent-1');
      assert.ok(saved.createdAt instanceof Date);
      assert.equal(saved.expiresAt.getTime(), inOneMinute.getTime());

      assert.deepEqual(await store.findLive(resource.tokenHash, now), saved);
      assert.deepEqual(
        await new PrismaResourceStore(db).findLive(resource.tokenHash, now),
        saved,
        'another replica reads the same metadata',
      );
      assert.equal(await store.findLive('0'.repeat(64), now), null);
      assert.equal(await store.claim('0'.repeat(64), now), null);
    });

    test('caller defaults to null', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const saved = await new PrismaResourceStore(db).save(sampleResource({ caller: undefined }));
      assert.equal(saved.caller, null);
    });

    test('claim returns the whole table as saved: from memory in the issuing process, from the database elsewhere', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const issuer = new PrismaResourceStore(db);
      const rows = sampleRows(8);
      const local = sampleResource({ table: ResourceTable.of(rows), expiresAt: inOneMinute });
      const remote = sampleResource({ table: ResourceTable.of(rows), expiresAt: inOneMinute });
      const savedLocal = await issuer.save(local);
      await issuer.save(remote);

      const fromMemory = await issuer.claim(local.tokenHash, now);
      assert.ok(fromMemory);
      assert.deepEqual(fromMemory.info, savedLocal);
      assert.deepEqual(fromMemory.table.rows, rows);

      const replica = new PrismaResourceStore(db);
      const fromDatabase = await replica.claim(remote.tokenHash, now);
      assert.ok(fromDatabase);
      assert.deepEqual(fromDatabase.table.rows, rows);
      assert.notEqual(fromDatabase.table.rows[0], rows[0], 'read back from the database, not shared memory');
      assert.deepEqual(Object.keys(fromDatabase.table.rows[0]), Object.keys(rows[0]), 'column order is kept');
      assert.equal(await issuer.claim(remote.tokenHash, now), null, 'the issuer cannot serve what a replica consumed');
    });

    test('a claimed resource is single-use: metadata kept with consumedAt, its table freed', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db, BEFORE_ANSWER);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);
      assert.ok((await db.client.s2spResourceChunk.count({ where: { resourceId: saved.id } })) > 0);

      assert.ok(await store.claim(resource.tokenHash, now));
      assert.equal(await store.claim(resource.tokenHash, now), null);
      assert.equal(await store.findLive(resource.tokenHash, now), null);
      assert.equal(await new PrismaResourceStore(db).findLive(resource.tokenHash, now), null);

      const audit = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(audit.consumedAt?.getTime(), now.getTime());
      await store.sweepExpired(now);
      assert.equal(await db.client.s2spResourceChunk.count({ where: { resourceId: saved.id } }), 0);
    });

    test('expiry: live until expiresAt, then neither found nor claimable', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);
      const justBefore = new Date(inOneMinute.getTime() - 1);

      assert.ok(await store.findLive(resource.tokenHash, justBefore));
      assert.equal(await store.findLive(resource.tokenHash, inOneMinute), null);
      assert.equal(await new PrismaResourceStore(db).findLive(resource.tokenHash, inOneMinute), null);
      assert.equal(await store.claim(resource.tokenHash, inOneMinute), null);

      const untouched = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(untouched.consumedAt, null, 'a refused claim must not mark the resource');
    });

    test('sweepExpired removes expired resources with their tables and keeps live ones', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db, BEFORE_ANSWER);
      const sweepAt = new Date(now.getTime() + 10 * 60_000);
      const expiring = sampleResource({ expiresAt: new Date(sweepAt.getTime() - 1) });
      const live = sampleResource({ expiresAt: new Date(sweepAt.getTime() + 60_000) });
      const expiringId = (await store.save(expiring)).id;
      await store.save(live);

      const removed = await store.sweepExpired(sweepAt);
      // Other tests in this suite left resources expiring before sweepAt too.
      assert.ok(removed >= 1, `removed ${removed}`);
      assert.equal(await db.client.s2spResource.count({ where: { expiresAt: { lte: sweepAt } } }), 0);
      assert.equal(await db.client.s2spResourceChunk.count({ where: { resourceId: expiringId } }), 0);
      assert.equal(store.cacheUsage().tables, 1, 'the expired table left memory too');
      assert.ok(await store.findLive(live.tokenHash, sweepAt));
      assert.equal(await store.sweepExpired(sweepAt), 0);
    });

    test('a damaged stored table fails the claim loudly instead of answering part of it', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const resource = sampleResource({ table: ResourceTable.of(sampleRows(20_000)), expiresAt: inOneMinute });
      const saved = await new PrismaResourceStore(db, BEFORE_ANSWER).save(resource);
      await db.client.s2spResourceChunk.delete({ where: { resourceId_seq: { resourceId: saved.id, seq: 1 } } });

      await assert.rejects(
        new PrismaResourceStore(db).claim(resource.tokenHash, now),
        /Stored table has \d+ rows; 20000 were stored/,
      );
    });

    test('a duplicate token hash is refused and the first resource is untouched', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db);
      const first = sampleResource({ expiresAt: inOneMinute });
      await store.save(first);
      await assert.rejects(store.save({ ...first, toolName: 'other' }));
      assert.equal((await new PrismaResourceStore(db).findLive(first.tokenHash, now))?.toolName, first.toolName);
    });

    test('a "__proto__" column is kept as data, never as a prototype, through the database', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const row = JSON.parse('{"__proto__":{"polluted":true},"plain":1}') as Record<string, unknown>;
      const resource = sampleResource({ table: ResourceTable.of([row]), expiresAt: inOneMinute });
      await new PrismaResourceStore(db).save(resource);

      const [back] = (await new PrismaResourceStore(db).claim(resource.tokenHash, now))?.table.rows ?? [];
      assert.ok(back);
      assert.equal(Object.getPrototypeOf(back), Object.prototype);
      assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { polluted: true });
      assert.equal(back.plain, 1);
    });

    test('a resource with no rows round-trips', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const resource = sampleResource({ table: ResourceTable.of([]), expiresAt: inOneMinute });
      assert.equal((await new PrismaResourceStore(db).save(resource)).rowCount, 0);
      assert.deepEqual((await new PrismaResourceStore(db).claim(resource.tokenHash, now))?.table.rows, []);
    });

    test('a table larger than the cache budget is not kept in memory and is served from the database', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const rows = sampleRows(30_000);
      const table = ResourceTable.of(rows);
      const store = new PrismaResourceStore(db, { ...BEFORE_ANSWER, cacheMaxBytes: encodedLengthOf(rows) - 1 });
      const resource = sampleResource({ table, expiresAt: inOneMinute });
      await store.save(resource);
      assert.deepEqual(store.cacheUsage(), { bytes: 0, tables: 0 });

      const claimed = await store.claim(resource.tokenHash, now);
      assert.equal(claimed?.table.rowCount, 30_000);
      assert.deepEqual(claimed?.table.rows[29_999], rows[29_999]);
    });

    test('a small table is held, once written, by its encoded text, and a later claim in the process serves the same rows', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const modes: PrismaResourceStoreOptions[] = [{}, BEFORE_ANSWER];
      for (const options of modes) {
        const store: PrismaResourceStore = new PrismaResourceStore(db, options);
        await store.onApplicationBootstrap();
        const rows = sampleRows(10).map((row, index) => (index === 2 ? { ...row, extra: [1, { deep: true }] } : row));
        const table = ResourceTable.of(rows);
        const resource = sampleResource({ table, expiresAt: inOneMinute });
        await store.save(resource);
        await store.writesSettled();
        assert.deepEqual(store.cacheUsage(), { bytes: encodedLengthOf(rows), tables: 1 }, JSON.stringify(options));
        const claimed = await store.claim(resource.tokenHash, now);
        assert.notEqual(claimed?.table, table, 'the row objects were let go once the table was written');
        assert.deepEqual(claimed?.table.rows, rows);
        assert.deepEqual(store.cacheUsage(), { bytes: 0, tables: 0 });
        await store.beforeApplicationShutdown();
      }
    });

    test('the cache drops its least recently used tables to stay within its budget', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const tables = [0, 1, 2].map(() => ResourceTable.of(sampleRows(10)));
      const budget = encodedLengthOf(tables[0].rows) * 2;
      const store = new PrismaResourceStore(db, { ...BEFORE_ANSWER, cacheMaxBytes: budget });
      const resources = tables.map((table) => sampleResource({ table, expiresAt: inOneMinute }));
      for (const resource of resources) await store.save(resource);
      assert.equal(store.cacheUsage().tables, 2);
      assert.ok(store.cacheUsage().bytes <= budget);
      // The evicted (oldest) one is still served, from the database.
      assert.deepEqual((await store.claim(resources[0].tokenHash, now))?.table.rows, tables[0].rows);
    });

    test('after-answer: the issuing process serves a claim from memory at once, and shutdown finishes the other writes', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db, { writeMode: 'after-answer' });
      const claimedSoon = sampleResource({ expiresAt: inOneMinute });
      const keptForLater = sampleResource({ expiresAt: inOneMinute });
      await store.save(claimedSoon);
      await store.save(keptForLater);
      assert.deepEqual((await store.claim(claimedSoon.tokenHash, now))?.table.rows, claimedSoon.table.rows);

      await store.beforeApplicationShutdown();
      const afterRestart = await new PrismaResourceStore(db).claim(keptForLater.tokenHash, now);
      assert.deepEqual(afterRestart?.table.rows, keptForLater.table.rows);
    });

    test('before-answer: a table that fails to encode part way stores nothing: save rejects and no resource or chunk is left', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const [resourcesBefore, chunksBefore] = [
        await db.client.s2spResource.count(),
        await db.client.s2spResourceChunk.count(),
      ];
      const resource = sampleResource({ table: ResourceTable.of(rowsFailingLate()), expiresAt: inOneMinute });
      await assert.rejects(new PrismaResourceStore(db, BEFORE_ANSWER).save(resource), /BigInt/);
      assert.equal(await db.client.s2spResource.count(), resourcesBefore);
      assert.equal(await db.client.s2spResourceChunk.count(), chunksBefore);
      assert.equal(await new PrismaResourceStore(db).findLive(resource.tokenHash, now), null);
    });

    test('after-answer: a write that fails after the answer leaves a resource_url that is simply unknown', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db, { writeMode: 'after-answer' });
      const resource = sampleResource({ table: ResourceTable.of(rowsFailingLate()), expiresAt: inOneMinute });
      await store.save(resource);
      await store.writesSettled();
      assert.equal(await store.claim(resource.tokenHash, now), null);
      assert.equal(await store.findLive(resource.tokenHash, now), null);
      const replica = new PrismaResourceStore(db);
      assert.equal(await replica.findLive(resource.tokenHash, now), null);
      assert.equal(
        await replica.claim(resource.tokenHash, now),
        null,
        'the failed resource is gone: nothing left to wait for',
      );
    });

    test('after-answer: a table of one block goes in with its row, in one statement, before save resolves', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const gate = withheldTransactions(db); // never released: no transaction is needed
      const issuer = new PrismaResourceStore(gate.database, { writeMode: 'after-answer' });
      const resource = sampleResource({ table: ResourceTable.of(sampleRows(64)), expiresAt: inOneMinute });
      await issuer.save(resource);
      const replica = new PrismaResourceStore(db, { tableWaitMs: 50 });
      assert.deepEqual(
        (await replica.claim(resource.tokenHash, now))?.table.rows,
        resource.table.rows,
        'another replica reads the whole table at once',
      );
    });

    test('after-answer: a write that meets an unreachable database is tried again until it is stored; nothing is lost', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const outage = outageOfTransactions(db, 2);
      const store = new PrismaResourceStore(outage.database, { writeMode: 'after-answer' });
      const resource = multiBlockResource();
      await store.save(resource);
      await store.writesSettled();
      assert.equal(outage.refused(), 2, 'the write met the outage twice before it went through');
      const replica = new PrismaResourceStore(db);
      const claimed = await replica.claim(resource.tokenHash, now);
      assert.deepEqual(claimed?.table.rows, resource.table.rows, 'another replica reads the whole table');
    });

    test('after-answer: shutting down during an outage ends the write instead of waiting for the database', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const outage = outageOfTransactions(db, Number.POSITIVE_INFINITY);
      const store = new PrismaResourceStore(outage.database, { writeMode: 'after-answer' });
      await store.save(multiBlockResource());
      await eventually('the write to meet the outage', () => outage.refused() > 0);
      await store.beforeApplicationShutdown();
      assert.ok(outage.refused() >= 1);
    });

    test('after-answer: a claim within writeDelayMs starts no write at all; shutdown writes the unclaimed tables at once', async (t) => {
      const db = database.get(t);
      if (!db) return;
      let transactions = 0;
      const counted: StoreDatabase = {
        sql: {
          query: (text, params) => db.sql.query(text, params),
          transaction: (work) => {
            transactions += 1;
            return db.sql.transaction(work);
          },
        },
      };
      const issuer = new PrismaResourceStore(counted, { writeMode: 'after-answer', writeDelayMs: 60_000 });
      const claimedSoon = sampleResource({ table: ResourceTable.of(sampleRows(5_000)), expiresAt: inOneMinute });
      const unclaimed = sampleResource({ table: ResourceTable.of(sampleRows(5_000)), expiresAt: inOneMinute });
      await issuer.save(claimedSoon);
      await issuer.save(unclaimed);
      assert.deepEqual((await issuer.claim(claimedSoon.tokenHash, now))?.table.rows, claimedSoon.table.rows);
      assert.equal(transactions, 0, 'no table write started within the delay');

      await issuer.beforeApplicationShutdown();
      assert.equal(transactions, 1, 'only the unclaimed table was written, without waiting out the delay');
      const elsewhere = await new PrismaResourceStore(db).claim(unclaimed.tokenHash, now);
      assert.deepEqual(elsewhere?.table.rows, unclaimed.table.rows);
    });

    test('after-answer: a table claimed in the issuing process before it was stored is never written', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const gate = withheldTransactions(db);
      const issuer = new PrismaResourceStore(gate.database, { writeMode: 'after-answer' });
      const resource = sampleResource({ table: ResourceTable.of(sampleRows(5_000)), expiresAt: inOneMinute });
      const saved = await issuer.save(resource);

      assert.deepEqual(
        (await issuer.claim(resource.tokenHash, now))?.table.rows,
        resource.table.rows,
        'served before its write even started',
      );
      gate.release();
      await issuer.writesSettled();
      assert.equal(
        await db.client.s2spResourceChunk.count({ where: { resourceId: saved.id } }),
        0,
        'the write was given up',
      );
      const row = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(row.consumedAt?.getTime(), now.getTime(), 'the resource stays consumed');
      assert.equal(await issuer.claim(resource.tokenHash, now), null);
      assert.equal(issuer.cacheUsage().tables, 0, 'a consumed table is not kept');
    });

    test('after-answer: the resource is known everywhere at once; another replica waits for its table, then gets all of it', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const gate = withheldTransactions(db);
      const issuer = new PrismaResourceStore(gate.database, { writeMode: 'after-answer' });
      const rows = sampleRows(5_000);
      const resource = sampleResource({ table: ResourceTable.of(rows), expiresAt: inOneMinute });
      const saved = await issuer.save(resource);

      const replica = new PrismaResourceStore(db);
      assert.deepEqual(
        await replica.findLive(resource.tokenHash, now),
        saved,
        'validation before consume works on any replica',
      );
      const claim = replica.claim(resource.tokenHash, now);
      assert.equal(await settlesWithin(claim, 150), false, 'the replica waits while the table is being written');
      assert.equal(
        (await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } })).consumedAt,
        null,
        'waiting consumes nothing',
      );

      gate.release();
      assert.deepEqual((await claim)?.table.rows, rows);
      assert.equal(await issuer.claim(resource.tokenHash, now), null, 'single use: the issuer cannot serve it again');
    });

    test('after-answer: a table still not stored after tableWaitMs fails the claim clearly and leaves the resource usable', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const gate = withheldTransactions(db);
      const issuer = new PrismaResourceStore(gate.database, { writeMode: 'after-answer' });
      const resource = multiBlockResource();
      await issuer.save(resource);

      const impatient = new PrismaResourceStore(db, { tableWaitMs: 50 });
      await assert.rejects(impatient.claim(resource.tokenHash, now), (error: unknown) => {
        assert.ok(error instanceof ResourceTableNotStoredError);
        assert.match(error.message, /still being stored .*waited 50 ms/);
        return true;
      });
      assert.ok(await impatient.findLive(resource.tokenHash, now), 'not consumed');

      gate.release();
      await issuer.writesSettled();
      assert.deepEqual((await impatient.claim(resource.tokenHash, now))?.table.rows, resource.table.rows);
    });
  });
}

describe('PrismaResourceStore with tablesInProcessOnly (an in-memory PGlite)', () => {
  const database = useSuiteDatabase('pglite');
  const now = new Date();

  const chunksOf = async (db: StoreDatabase, id: string): Promise<number> =>
    (
      await db.sql.query<{ chunks: number }>(
        'SELECT count(*)::int AS chunks FROM s2sp_resource_chunk WHERE resource_id = $1::uuid',
        [id],
      )
    )[0].chunks;

  test('a table of any size stays out of the database; the row is the single-use gate; the table is served from memory once', async (t) => {
    const db = database.get(t);
    if (!db) return;
    const store = new PrismaResourceStore(db, { tablesInProcessOnly: true, cacheMaxBytes: 0 });
    const rows = sampleRows(20_000);
    const resource = sampleResource({ table: ResourceTable.of(rows), expiresAt: new Date(now.getTime() + 60_000) });
    const saved = await store.save(resource);
    assert.equal(await chunksOf(db, saved.id), 0, 'no chunk was written');
    assert.deepEqual(await store.findLive(resource.tokenHash, now), saved);
    assert.deepEqual(
      await new PrismaResourceStore(db, { tablesInProcessOnly: true }).findLive(resource.tokenHash, now),
      saved,
      'the row is in the database',
    );

    const [first, second] = await Promise.all([
      store.claim(resource.tokenHash, now),
      store.claim(resource.tokenHash, now),
    ]);
    const winners = [first, second].filter((claimed) => claimed !== null);
    assert.equal(winners.length, 1, 'one claim of two concurrent ones wins');
    assert.equal(winners[0]?.table.rows, rows, 'served from memory, outside the (zero) cache budget');
    assert.equal(await store.claim(resource.tokenHash, now), null);
  });

  test('expired tables leave memory with the sweep', async (t) => {
    const db = database.get(t);
    if (!db) return;
    const store = new PrismaResourceStore(db, { tablesInProcessOnly: true });
    const resource = sampleResource({ expiresAt: new Date(now.getTime() + 1_000) });
    await store.save(resource);
    const later = new Date(now.getTime() + 2_000);
    assert.ok((await store.sweepExpired(later)) >= 1);
    assert.equal(await store.findLive(resource.tokenHash, now), null, 'not held any more, and its row is gone');
  });
});
