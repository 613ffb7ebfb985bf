import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { sampleResource } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const CONSUMERS = 20;
const RESOURCES = 5;

for (const kind of KINDS) {
  describe(`concurrent consume on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test(`${CONSUMERS} parallel consumers of one token: exactly one gets the rows`, async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resource = sampleResource();
      await store.save(resource);

      const results = await Promise.all(Array.from({ length: CONSUMERS }, () => store.consume(resource.tokenHash, { rowIds: [] })));
      const winners = results.filter((result) => result !== null);
      assert.equal(winners.length, 1);
      assert.deepEqual(winners[0]?.rows, resource.rows);
    });

    test(`${RESOURCES} tokens raced by ${CONSUMERS} consumers each: one winner per token`, async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db.client);
      const resources = Array.from({ length: RESOURCES }, () => sampleResource());
      for (const resource of resources) await store.save(resource);

      const attempts = resources.flatMap((resource) =>
        Array.from({ length: CONSUMERS }, async () => ({ token: resource.tokenHash, result: await store.consume(resource.tokenHash, { rowIds: [0, 2] }) })),
      );
      const outcomes = await Promise.all(attempts);
      for (const resource of resources) {
        const winners = outcomes.filter((outcome) => outcome.token === resource.tokenHash && outcome.result !== null);
        assert.equal(winners.length, 1, `winners for one token`);
        assert.deepEqual(
          winners[0]?.result?.rows.map((row) => row._row_id),
          [0, 2],
        );
      }
    });
  });
}
