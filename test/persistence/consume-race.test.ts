import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaResourceStore, type ResourceClaimCommit } from '../../libs/s2sp/src/store/prisma-resource-store';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { sampleResource } from '../support/resource-fixtures';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const CONSUMERS = 20;
const RESOURCES = 5;
const CLAIM_COMMITS: ResourceClaimCommit[] = ['fast', 'durable'];

for (const kind of KINDS) {
  for (const claimCommit of CLAIM_COMMITS) {
    describe(`concurrent claims on ${kind}, ${claimCommit} claim commits`, () => {
      const database = useSuiteDatabase(kind);

      test(`${CONSUMERS} parallel claims of one token, half through another replica: exactly one gets the table`, async (t) => {
        const db = database.get(t);
        if (!db) return;
        const issuer = new PrismaResourceStore(db, { claimCommit });
        const replica = new PrismaResourceStore(db, { claimCommit });
        const resource = sampleResource();
        await issuer.save(resource);

        const results = await Promise.all(
          Array.from({ length: CONSUMERS }, (_, i) => (i % 2 === 0 ? issuer : replica).claim(resource.tokenHash)),
        );
        const winners = results.filter((result) => result !== null);
        assert.equal(winners.length, 1);
        assert.deepEqual(winners[0]?.table.rows, resource.table.rows);
      });

      test(`the claim ${claimCommit === 'durable' ? 'waits' : 'does not wait'} for PostgreSQL's log flush`, async (t) => {
        const db = database.get(t);
        if (!db) return;
        const statements: string[] = [];
        const recording = {
          query: <Row>(text: string, params?: readonly unknown[]) => (
            statements.push(text),
            db.sql.query<Row>(text, params)
          ),
          transaction: db.sql.transaction,
        };
        const store = new PrismaResourceStore({ sql: recording }, { claimCommit });
        const resource = sampleResource();
        await store.save(resource);
        statements.length = 0;
        assert.notEqual(await store.claim(resource.tokenHash), null);
        const [claim] = statements.filter((text) => text.includes('consumed_at = $2'));
        assert.ok(claim, 'the claim statement ran');
        assert.equal(claim.includes("'synchronous_commit', 'off'"), claimCommit === 'fast');
      });

      test(`${RESOURCES} tokens raced by ${CONSUMERS} consumers each: one winner per token`, async (t) => {
        const db = database.get(t);
        if (!db) return;
        const store = new PrismaResourceStore(db, { claimCommit });
        const resources = Array.from({ length: RESOURCES }, () => sampleResource());
        for (const resource of resources) await store.save(resource);

        const attempts = resources.flatMap((resource) =>
          Array.from({ length: CONSUMERS }, async () => ({
            token: resource.tokenHash,
            result: await store.claim(resource.tokenHash),
          })),
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
}
