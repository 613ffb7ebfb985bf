import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { sampleResource, sampleRows } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];

for (const kind of KINDS) {
  describe(`PrismaResourceStore on ${kind}`, () => {
    const database = useSuiteDatabase(kind);
    const now = new Date();
    const inOneMinute = new Date(now.getTime() + 60_000);

    test('save then findLive returns the metadata; unknown token hashes are null', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);

      assert.match(saved.id, /^[0-9a-f-]{36}$/);
      assert.equal(saved.toolName, resource.toolName);
      assert.deepEqual(saved.columns, resource.columns);
      assert.deepEqual(saved.abstractDomains, resource.abstractDomains);
      assert.deepEqual(saved.bodyDomains, resource.bodyDomains);
      assert.equal(saved.rowCount, resource.rows.length);
      assert.equal(saved.caller, 'agent-1');
      assert.ok(saved.createdAt instanceof Date);
      assert.equal(saved.expiresAt.getTime(), inOneMinute.getTime());

      assert.deepEqual(await store.findLive(resource.tokenHash, now), saved);
      assert.equal(await store.findLive('0'.repeat(64), now), null);
      assert.equal(await store.consume('0'.repeat(64), { rowIds: [] }, now), null);
    });

    test('caller defaults to null', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const saved = await new PrismaResourceStore(db.client).save(sampleResource({ caller: undefined }));
      assert.equal(saved.caller, null);
    });

    test('consume with no row ids returns every row, in _row_id order, exactly as saved', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const rows = sampleRows(8);
      const resource = sampleResource({ rows: [...rows].reverse(), expiresAt: inOneMinute });
      const saved = await store.save(resource);

      const consumed = await store.consume(resource.tokenHash, { rowIds: [] }, now);
      assert.ok(consumed);
      assert.deepEqual(consumed.info, saved);
      assert.deepEqual(consumed.rows, rows);
      assert.deepEqual(Object.keys(consumed.rows[0]), ['_row_id', ...Object.keys(rows[0]).filter((key) => key !== '_row_id')]);
    });

    test('consume returns only the requested rows; unknown, duplicate and impossible ids are ignored', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ rows: sampleRows(6), expiresAt: inOneMinute });
      await store.save(resource);

      const consumed = await store.consume(resource.tokenHash, { rowIds: [5, 1, 1, 999, -3, 1.5, 2 ** 40, Number.NaN] }, now);
      assert.ok(consumed);
      assert.deepEqual(
        consumed.rows.map((row) => row._row_id),
        [1, 5],
      );
      assert.deepEqual(consumed.rows[1], resource.rows[5]);
    });

    test('a consumed resource is single-use: rows are deleted, metadata kept with consumedAt', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);

      assert.ok(await store.consume(resource.tokenHash, { rowIds: [0] }, now));
      assert.equal(await store.consume(resource.tokenHash, { rowIds: [] }, now), null);
      assert.equal(await store.findLive(resource.tokenHash, now), null);

      const audit = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(audit.consumedAt?.getTime(), now.getTime());
      assert.equal(await db.client.s2spResourceRow.count({ where: { resourceId: saved.id } }), 0);
    });

    test('expiry: live until expiresAt, then neither found nor consumable', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);
      const justBefore = new Date(inOneMinute.getTime() - 1);

      assert.ok(await store.findLive(resource.tokenHash, justBefore));
      assert.equal(await store.findLive(resource.tokenHash, inOneMinute), null);
      assert.equal(await store.consume(resource.tokenHash, { rowIds: [] }, inOneMinute), null);

      const untouched = await db.client.s2spResource.findUniqueOrThrow({ where: { id: saved.id } });
      assert.equal(untouched.consumedAt, null, 'a refused consume must not mark the resource');
    });

    test('sweepExpired removes expired resources with their rows and keeps live ones', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const sweepAt = new Date(now.getTime() + 10 * 60_000);
      const expiring = sampleResource({ expiresAt: new Date(sweepAt.getTime() - 1) });
      const consumedExpiring = sampleResource({ expiresAt: sweepAt });
      const live = sampleResource({ expiresAt: new Date(sweepAt.getTime() + 60_000) });
      const expiringId = (await store.save(expiring)).id;
      await store.save(consumedExpiring);
      await store.save(live);
      assert.ok(await store.consume(consumedExpiring.tokenHash, { rowIds: [] }, now));

      const removed = await store.sweepExpired(sweepAt);
      // Other tests in this suite left resources expiring before sweepAt too.
      assert.ok(removed >= 2, `removed ${removed}`);
      assert.equal(await db.client.s2spResource.count({ where: { expiresAt: { lte: sweepAt } } }), 0);
      assert.equal(await db.client.s2spResourceRow.count({ where: { resourceId: expiringId } }), 0);
      assert.ok(await store.findLive(live.tokenHash, sweepAt));
      assert.equal(await store.sweepExpired(sweepAt), 0);
    });

    test('if consume fails midway nothing is consumed', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ expiresAt: inOneMinute });
      const saved = await store.save(resource);
      // A body that is not a JSON object makes reading the rows throw inside the transaction.
      await db.client.s2spResourceRow.create({ data: { resourceId: saved.id, rowId: 1000, body: [1, 2, 3] } });

      await assert.rejects(store.consume(resource.tokenHash, { rowIds: [] }, now), /not a JSON object/);
      assert.deepEqual(await store.findLive(resource.tokenHash, now), saved);
      assert.equal(await db.client.s2spResourceRow.count({ where: { resourceId: saved.id } }), resource.rows.length + 1);
    });

    test('save rejects rows without an integer _row_id and a duplicate token hash, writing nothing', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const bad = sampleResource({ rows: [{ _row_id: 0, a: 1 }, { _row_id: '1', a: 2 }] });
      await assert.rejects(store.save(bad), /rows\[1\]\._row_id must be a 32-bit integer/);
      assert.equal(await db.client.s2spResource.count({ where: { tokenHash: bad.tokenHash } }), 0);

      const first = sampleResource({ expiresAt: inOneMinute });
      await store.save(first);
      const before = await db.client.s2spResourceRow.count();
      await assert.rejects(store.save({ ...first, toolName: 'other' }));
      assert.equal(await db.client.s2spResourceRow.count(), before);
      assert.equal((await store.findLive(first.tokenHash, now))?.toolName, first.toolName);
    });

    test('duplicate _row_ids are rejected and nothing is kept', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ rows: [{ _row_id: 1, a: 1 }, { _row_id: 1, a: 2 }] });
      await assert.rejects(store.save(resource));
      assert.equal(await db.client.s2spResource.count({ where: { tokenHash: resource.tokenHash } }), 0);
    });

    test('a "__proto__" column is kept as data, never as a prototype', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const row = JSON.parse('{"_row_id":0,"__proto__":{"polluted":true},"plain":1}') as Record<string, unknown>;
      const resource = sampleResource({ rows: [row], expiresAt: inOneMinute });
      await store.save(resource);

      const [back] = (await store.consume(resource.tokenHash, { rowIds: [] }, now))?.rows ?? [];
      assert.ok(back);
      assert.equal(Object.getPrototypeOf(back), Object.prototype);
      assert.deepEqual(Object.getOwnPropertyDescriptor(back, '__proto__')?.value, { polluted: true });
      assert.equal(back.plain, 1);
    });

    test('a resource with no rows round-trips', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource({ rows: [], expiresAt: inOneMinute });
      assert.equal((await store.save(resource)).rowCount, 0);
      assert.deepEqual((await store.consume(resource.tokenHash, { rowIds: [] }, now))?.rows, []);
    });

    test('thousands of rows: one save, one consume', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const rows = sampleRows(5000);
      const resource = sampleResource({ rows, expiresAt: inOneMinute });

      let started = performance.now();
      assert.equal((await store.save(resource)).rowCount, 5000);
      const saveMs = performance.now() - started;
      started = performance.now();
      const consumed = await store.consume(resource.tokenHash, { rowIds: [] }, now);
      const consumeMs = performance.now() - started;
      t.diagnostic(`save ${saveMs.toFixed(0)} ms, consume ${consumeMs.toFixed(0)} ms for 5000 rows`);

      assert.ok(consumed);
      assert.equal(consumed.rows.length, 5000);
      assert.deepEqual(consumed.rows[4999], rows[4999]);
      assert.ok(consumed.rows.every((row, i) => row._row_id === i));
    });
  });
}
