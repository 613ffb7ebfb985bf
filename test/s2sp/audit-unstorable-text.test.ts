import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { AuditEvent } from '../../libs/auth/src';
import { PrismaAuditSink } from '../../libs/s2sp/src/audit/prisma-audit-sink';
import { PrismaDataPlaneFetchAudit } from '../../libs/s2sp/src/audit/prisma-data-plane-fetch-audit';
import { storable, UNSTORABLE_CHARACTER_MARK as MARK } from '../../libs/s2sp/src/audit/storable-text';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const LONE_SURROGATE = '\uD800';

const oddDecision: AuditEvent = {
  time: '2026-11-24T10:00:00.000Z',
  decision: 'deny',
  outcome: 'missing-scopes',
  subject: 'mallory\u0000',
  delegatedBy: ['gate\u0000way'],
  callerScopes: [`odd${LONE_SURROGATE}`],
  protocol: 'mcp',
  service: 'weather-server',
  operation: 'tool\u0000name',
  requiredScopes: ['weather:read'],
  missingScopes: ['weather:read'],
  mutationClass: 'READ_ONLY',
  remoteAddress: '127.0.0.1',
};

describe('storable', () => {
  test('replaces NUL and unpaired surrogates in every string, keys included; keeps everything else', () => {
    assert.deepEqual(
      storable({ 'k\u0000': ['a\u0000b', `${LONE_SURROGATE}x`, '😀 ok', 3, null], nested: { n: 'é\u0000' } }),
      {
        [`k${MARK}`]: [`a${MARK}b`, `${MARK}x`, '😀 ok', 3, null],
        nested: { n: `é${MARK}` },
      },
    );
    const time = new Date();
    assert.equal(storable({ time }).time, time, 'dates are left as they are');
  });
});

for (const kind of KINDS) {
  describe(`audit sinks store odd text on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('an authorization decision with NUL and an unpaired surrogate is stored, marked', async (t) => {
      const db = database.get(t);
      if (!db) return;
      await new PrismaAuditSink(db).recordMany([oddDecision]);
      const row = await db.client.auditEvent.findFirstOrThrow({ where: { subject: `mallory${MARK}` } });
      assert.equal(row.operation, `tool${MARK}name`);
      assert.deepEqual(row.delegatedBy, [`gate${MARK}way`]);
      assert.deepEqual(row.callerScopes, [`odd${MARK}`]);
    });

    test('a refused data-plane fetch whose column name holds NUL is stored, marked', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const audit = new PrismaDataPlaneFetchAudit(db);
      await audit.record({
        time: new Date(),
        subject: 'alice',
        delegatedBy: ['stats\u0000server'],
        callerScopes: ['s2sp:data:read'],
        result: 'invalid-request',
        reason: 'Unknown column: x\u0000. Body columns: description.',
        rows: 0,
        columns: 0,
        bytes: 0,
      });
      const row = await db.client.dataPlaneFetch.findFirstOrThrow({
        where: { result: 'invalid-request', subject: 'alice' },
      });
      assert.equal(row.reason, `Unknown column: x${MARK}. Body columns: description.`);
      assert.deepEqual(row.delegatedBy, [`stats${MARK}server`]);
      assert.equal(audit.auditWriteStatus().status, 'ok');
    });
  });
}
