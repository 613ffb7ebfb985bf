import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AuditRetention, auditRetentionFromEnv } from '../../libs/s2sp/src/audit/audit-retention';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';
import { withEnv } from '../support/with-env';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const DAY_MS = 24 * 60 * 60 * 1000;

for (const kind of KINDS) {
  describe(`audit retention on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('deletes decisions and fetch records older than the retention, in batches, and keeps the rest', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const now = new Date('2026-11-24T12:00:00Z');
      const ages = [40, 31, 30.5, 29, 1, 0].map((days) => new Date(now.getTime() - days * DAY_MS));
      await db.client.auditEvent.createMany({
        data: ages.map((time) => ({
          time,
          decision: 'allow',
          outcome: 'allowed',
          delegatedBy: [],
          protocol: 'json-rpc',
          service: 'gateway',
          operation: 'tools.list',
          requiredScopes: [],
          missingScopes: [],
          mutationClass: 'read',
        })),
      });
      await db.client.dataPlaneFetch.createMany({
        data: ages.map((time) => ({ time, delegatedBy: [], result: 'served' })),
      });

      const retention = new AuditRetention(db.sql, { retentionMs: 30 * DAY_MS, sweepIntervalMs: 60_000, batchSize: 2 });
      assert.equal(await retention.sweepOnce(now), 6, 'three old records in each trail, two per statement');
      const kept = (rows: Array<{ time: Date }>) =>
        rows.map((row) => (now.getTime() - row.time.getTime()) / DAY_MS).sort((a, b) => a - b);
      assert.deepEqual(kept(await db.client.auditEvent.findMany({ select: { time: true } })), [0, 1, 29]);
      assert.deepEqual(kept(await db.client.dataPlaneFetch.findMany({ select: { time: true } })), [0, 1, 29]);
      assert.equal(await retention.sweepOnce(now), 0);

      const keepForever = new AuditRetention(db.sql, { retentionMs: 0, sweepIntervalMs: 60_000, batchSize: 2 });
      assert.equal(
        await keepForever.sweepOnce(new Date(now.getTime() + 365 * DAY_MS)),
        0,
        'retention 0 keeps every record',
      );
      assert.equal(await db.client.auditEvent.count(), 3);
    });
  });
}

describe('audit retention settings', () => {
  test('30 days by default; S2SP_AUDIT_RETENTION_DAYS sets days, S2SP_AUDIT_RETENTION_MS a shorter time and wins; bad values fail naming the variable', () => {
    const unset = {
      S2SP_AUDIT_RETENTION_DAYS: undefined,
      S2SP_AUDIT_RETENTION_MS: undefined,
      S2SP_AUDIT_RETENTION_SWEEP_MS: undefined,
    };
    assert.equal(withEnv(unset, auditRetentionFromEnv).retentionMs, 30 * DAY_MS);
    assert.equal(withEnv({ ...unset, S2SP_AUDIT_RETENTION_DAYS: '7' }, auditRetentionFromEnv).retentionMs, 7 * DAY_MS);
    assert.equal(
      withEnv({ ...unset, S2SP_AUDIT_RETENTION_DAYS: '7', S2SP_AUDIT_RETENTION_MS: '300000' }, auditRetentionFromEnv)
        .retentionMs,
      300_000,
    );
    assert.equal(withEnv({ ...unset, S2SP_AUDIT_RETENTION_DAYS: '0' }, auditRetentionFromEnv).retentionMs, 0);
    assert.throws(
      () => withEnv({ ...unset, S2SP_AUDIT_RETENTION_DAYS: '-1' }, auditRetentionFromEnv),
      /S2SP_AUDIT_RETENTION_DAYS/,
    );
    assert.throws(
      () => withEnv({ ...unset, S2SP_AUDIT_RETENTION_SWEEP_MS: '10' }, auditRetentionFromEnv),
      /S2SP_AUDIT_RETENTION_SWEEP_MS/,
    );
  });
});
