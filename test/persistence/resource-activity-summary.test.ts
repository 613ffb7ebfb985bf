import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../../libs/database/src/generated/client';
import { summarizeResourceActivity } from '../../libs/s2sp/src/activity/resource-activity-summary';
import { useSuiteDatabase, type TestDatabaseKind } from '../support/databases';

const KINDS: TestDatabaseKind[] = ['pglite', 'postgres'];
const NOW = new Date('2026-11-25T03:00:00.000Z');
const BEFORE = new Date(NOW.getTime() - 60_000);
const AFTER = new Date(NOW.getTime() + 60_000);

async function issue(
  prisma: PrismaClient,
  toolName: string,
  caller: string | null,
  state: { expiresAt: Date; consumedAt?: Date },
) {
  await prisma.s2spResource.create({
    data: {
      tokenHash: randomBytes(32).toString('hex'),
      toolName,
      caller,
      columns: [],
      abstractDomains: {},
      bodyDomains: {},
      rowCount: 1,
      expiresAt: state.expiresAt,
      consumedAt: state.consumedAt ?? null,
    },
  });
}

async function fetched(
  prisma: PrismaClient,
  toolName: string | null,
  subject: string | null,
  result: string,
  bytes: number,
  time: Date,
) {
  await prisma.dataPlaneFetch.create({ data: { toolName, subject, result, bytes, time, delegatedBy: [] } });
}

for (const kind of KINDS) {
  describe(`summarizeResourceActivity on ${kind}`, () => {
    const database = useSuiteDatabase(kind);

    test('an empty server has no rows', async (t) => {
      const db = database.get(t);
      if (!db) return;
      assert.deepEqual(await summarizeResourceActivity(db.sql, NOW), []);
    });

    test('counts issued, consumed, expired and live resources, and delivering fetches with their bytes, per tool and caller', async (t) => {
      const db = database.get(t);
      if (!db) return;
      const prisma = db.client;
      await issue(prisma, 'get_alerts', 'alice', { expiresAt: AFTER, consumedAt: BEFORE });
      await issue(prisma, 'get_alerts', 'alice', { expiresAt: BEFORE, consumedAt: BEFORE }); // consumed, then expired: counts as consumed
      await issue(prisma, 'get_alerts', 'alice', { expiresAt: BEFORE }); // expired unconsumed
      await issue(prisma, 'get_alerts', 'alice', { expiresAt: AFTER }); // live
      await issue(prisma, 'get_alerts', 'bob', { expiresAt: AFTER });
      await issue(prisma, 'get_forecast', null, { expiresAt: AFTER });
      await fetched(prisma, 'get_alerts', 'alice', 'served', 1000, BEFORE);
      await fetched(prisma, 'get_alerts', 'alice', 'interrupted', 200, NOW);
      await fetched(prisma, 'get_alerts', 'alice', 'forbidden', 0, AFTER); // refused: not a fetch that served anything
      await fetched(prisma, null, 'alice', 'not-found', 0, NOW); // matched no resource: no tool to count it under

      assert.deepEqual(await summarizeResourceActivity(db.sql, NOW), [
        {
          toolName: 'get_alerts',
          caller: 'alice',
          issued: 4,
          consumed: 2,
          expired: 1,
          live: 1,
          fetches: 2,
          bytes: 1200,
          lastFetch: NOW.toISOString(),
        },
        {
          toolName: 'get_alerts',
          caller: 'bob',
          issued: 1,
          consumed: 0,
          expired: 0,
          live: 1,
          fetches: 0,
          bytes: 0,
          lastFetch: null,
        },
        {
          toolName: 'get_forecast',
          caller: null,
          issued: 1,
          consumed: 0,
          expired: 0,
          live: 1,
          fetches: 0,
          bytes: 0,
          lastFetch: null,
        },
      ]);
    });
  });
}
