import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { S2SP_DATABASE, type RunningMcpServer } from '@s2sp/core';
import { type S2spDatabase } from '@s2sp/database';
import { AUDIT_SINK, type AuditSink } from '../../libs/auth/src';
import { connectMcp } from '../support/mcp-client';
import { fetchResource, startWeather } from '../support/stack';

interface Health {
  status: string;
  audit: {
    status: string;
    trails: Record<string, { status: string; pending: number; failedWrites: number; lastError?: string }>;
  };
}

async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * The weather server's two audit trails (authorization decisions, data-plane
 * fetches) against a database that refuses odd text or stops taking writes.
 */
describe('weather-server audit: odd text is stored, failed writes are retried and reported', () => {
  let weather: RunningMcpServer;
  let db: S2spDatabase['client'];

  before(async () => {
    weather = await startWeather();
    db = weather.app.get<S2spDatabase>(S2SP_DATABASE).client;
  });
  after(() => weather?.close());

  async function issueResource(): Promise<string> {
    const client = await connectMcp(weather.url);
    try {
      const result = await client.callTool({
        name: 'get_alerts',
        arguments: { area: 'CA', abstract_domains: 'event' },
      });
      return (result.structuredContent as { resource_url: string }).resource_url;
    } finally {
      await client.close();
    }
  }

  const health = async (): Promise<Health> => (await (await fetch(`${weather.url}/health`)).json()) as Health;
  const metrics = async (): Promise<string> => (await fetch(`${weather.url}/metrics`)).text();

  test('a fetch refused for a NUL in a column name is audited (the row exists)', async () => {
    const resourceUrl = await issueResource();
    const refused = await fetchResource(resourceUrl, '{"columns":["x\\u0000"]}');
    assert.equal(refused.status, 400);
    const row = await db.dataPlaneFetch.findFirst({ where: { result: 'invalid-request' }, orderBy: { time: 'desc' } });
    assert.ok(row, 'the refused fetch has its audit row');
    assert.ok(!row.reason?.includes('\u0000'));
    assert.match(row.reason ?? '', /x\uFFFD/);
  });

  test('while the fetch table refuses writes the record stays buffered, health and metrics say so; then it is stored', async () => {
    const resourceUrl = await issueResource();
    await db.$executeRawUnsafe('ALTER TABLE "s2sp_data_fetch" RENAME TO "s2sp_data_fetch_away"');
    let renamed = true;
    try {
      const served = await fetchResource(resourceUrl, { row_ids: [0] });
      assert.equal(served.status, 200, 'the fetch is served: its record waits in the buffer');
      const failing = await health();
      assert.equal(failing.status, 'degraded');
      assert.equal(failing.audit.trails.dataFetches?.status, 'failing');
      assert.equal(failing.audit.trails.dataFetches?.pending, 1);
      assert.match(failing.audit.trails.dataFetches?.lastError ?? '', /\S/);
      assert.match(await metrics(), /audit_write_failures_total\{trail="data-fetches"\} [1-9]/);

      await db.$executeRawUnsafe('ALTER TABLE "s2sp_data_fetch_away" RENAME TO "s2sp_data_fetch"');
      renamed = false;
      await eventually('the retry', async () => (await health()).audit.trails.dataFetches?.pending === 0);
      assert.equal((await health()).status, 'ok');
      assert.ok(
        await db.dataPlaneFetch.findFirst({ where: { result: 'served', rows: 1 } }),
        'the buffered record was stored',
      );
    } finally {
      if (renamed) await db.$executeRawUnsafe('ALTER TABLE "s2sp_data_fetch_away" RENAME TO "s2sp_data_fetch"');
    }
  });

  test('while the decision table refuses writes decisions stay queued and retried, health and metrics say so', async () => {
    const sink = weather.app.get<AuditSink>(AUDIT_SINK);
    await sink.flush?.();
    await db.$executeRawUnsafe('ALTER TABLE "s2sp_audit_event" RENAME TO "s2sp_audit_event_away"');
    let renamed = true;
    try {
      const client = await connectMcp(weather.url);
      await client.listTools();
      await client.close();
      await assert.rejects(() => sink.flush!());
      const failing = await health();
      assert.equal(failing.status, 'degraded');
      assert.equal(failing.audit.trails.decisions?.status, 'failing');
      assert.ok((failing.audit.trails.decisions?.pending ?? 0) > 0);
      assert.match(await metrics(), /audit_write_failures_total\{trail="decisions"\} [1-9]/);

      await db.$executeRawUnsafe('ALTER TABLE "s2sp_audit_event_away" RENAME TO "s2sp_audit_event"');
      renamed = false;
      await eventually('the retry', async () => (await health()).audit.trails.decisions?.pending === 0);
      assert.equal((await health()).audit.status, 'ok');
    } finally {
      if (renamed) await db.$executeRawUnsafe('ALTER TABLE "s2sp_audit_event_away" RENAME TO "s2sp_audit_event"');
    }
  });
});
