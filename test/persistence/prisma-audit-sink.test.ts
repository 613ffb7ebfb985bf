import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AuditEvent } from '../../libs/auth/src';
import { PrismaAuditSink } from '../../libs/s2sp/src/audit/prisma-audit-sink';
import { Prisma } from '../../libs/database/src/generated/client';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];

const allowed: AuditEvent = {
  time: '2026-11-22T10:00:00.123Z',
  decision: 'allow',
  outcome: 'authorized',
  subject: `o'brien "the" \\ caller`,
  issuer: 's2sp-dev',
  clientId: 'cli',
  tokenId: 'jti-1',
  callerScopes: ['weather:read', 'tools:call'],
  delegatedBy: ['gateway', 'agents'],
  protocol: 'mcp',
  service: 'weather-server',
  operation: 'get_alerts',
  requiredScopes: ['weather:read'],
  missingScopes: [],
  mutationClass: 'DESTRUCTIVE',
  approval: { approved: true, approver: 'bob', required: true, via: 'decided' },
  traceId: '0af7651916cd43dd8448eb211c80319c',
  remoteAddress: '127.0.0.1',
};

const refused: AuditEvent = {
  time: '2026-11-22T10:00:01.000Z',
  decision: 'deny',
  outcome: 'unauthenticated',
  authenticationFailure: 'expired',
  delegatedBy: [],
  protocol: 'http',
  service: 'weather-server',
  operation: 'POST /s2sp/data',
  requiredScopes: ['s2sp:data:read'],
  missingScopes: [],
  mutationClass: 'READ_ONLY',
};

for (const kind of KINDS) {
  describe(`PrismaAuditSink on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('recordMany stores a group in one go, every field as given; absent values are SQL NULL', async (t) => {
      const db = database.get(t);
      if (!db) return;
      await db.client.auditEvent.deleteMany();
      await new PrismaAuditSink(db).recordMany([allowed, refused]);
      const rows = await db.client.auditEvent.findMany({ orderBy: { time: 'asc' } });
      assert.equal(rows.length, 2);
      const [first, second] = rows;
      assert.match(first.id, /^[0-9a-f-]{36}$/);
      assert.notEqual(first.id, second.id);
      assert.deepEqual(
        { ...first, id: undefined },
        {
          id: undefined,
          time: new Date(allowed.time),
          decision: 'allow',
          outcome: 'authorized',
          authenticationFailure: null,
          subject: allowed.subject,
          delegatedBy: ['gateway', 'agents'],
          clientId: 'cli',
          tokenId: 'jti-1',
          issuer: 's2sp-dev',
          callerScopes: ['weather:read', 'tools:call'],
          protocol: 'mcp',
          service: 'weather-server',
          operation: 'get_alerts',
          requiredScopes: ['weather:read'],
          missingScopes: [],
          mutationClass: 'DESTRUCTIVE',
          approval: { approved: true, approver: 'bob', required: true, via: 'decided' },
          traceId: allowed.traceId,
          remoteAddress: '127.0.0.1',
        },
      );
      assert.equal(second.authenticationFailure, 'expired');
      assert.equal(second.subject, null);
      assert.equal(second.callerScopes, null);
      const withoutApproval = await db.client.auditEvent.count({ where: { approval: { equals: Prisma.DbNull } } });
      assert.equal(withoutApproval, 1, 'a missing approval is SQL NULL, not JSON null');
    });

    test('record stores one event; an empty group is a no-op', async (t) => {
      const db = database.get(t);
      if (!db) return;
      await db.client.auditEvent.deleteMany();
      const sink = new PrismaAuditSink(db);
      await sink.recordMany([]);
      await sink.record(refused);
      assert.deepEqual(
        (await db.client.auditEvent.findMany()).map((row) => row.outcome),
        ['unauthenticated'],
      );
    });
  });
}
