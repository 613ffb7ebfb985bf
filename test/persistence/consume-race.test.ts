import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { sampleResource } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const CONSUMERS = 20;
const RESOURCES = 5;

for (const kind of KINDS) {
  describe(`concurrent claims on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test(`${CONSUMERS} parallel claims of one token, half through another replica: exactly one gets the table`, async (t) => {
      const db = database.get(t);
      if (!db) return;
      const issuer = new PrismaResourceStore(db);
      const replica = new PrismaResourceStore(db);
      const resource = sampleResource();
      await issuer.save(resource);

      const results = await Promise.all(Array.from({ length: CONSUMERS }, (_, i) => (i % 2 === 0 ? issuer : replica).claim(resource.tokenHash)));
      const winners = results.filter((result) => result !== null);
      assert.equal(winners.length, 1);
      assert.deepEqual(winners[0]?.table.rows, resource.table.rows);
    });

    test(`${RESOURCES} tokens raced by ${CONSUMERS} consumers each: one winner per token`, async (t) => {
      const db = database.get(t);
      if (!db) return;
      const store = new PrismaResourceStore(db);
      const resources = Array.from({ length: RESOURCES }, () => sampleResource());
      for (const resource of resources) await store.save(resource);

      const attempts = resources.flatMap((resource) =>
        Array.from({ length: CONSUMERS }, async () => ({ token: resource.tokenHash, result: await store.claim(resource.tokenHash) })),
      );
      const outcomes = await Promise.all(attempts);
      for (const resource of resources) {
        const winners = outcomes.filter((outcome) => outcome.token === resource.tokenHash && outcome.result !== null);
        assert.equal(winners.length, 1, `winners for one token`);
        assert.deepEqual(winners[0]?.result?.table.rows, resource.table.rows);
      }
    });
  });
}
