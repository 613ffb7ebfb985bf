import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openS2spDatabase } from '../../libs/database/src/database';
import { PrismaResourceStore } from '../../libs/s2sp/src/store/prisma-resource-store';
import { sampleResource } from '../support/resource-fixtures';

test('a data dir (embedded PostgreSQL) keeps resources, and their consumption, across close and reopen', async () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 's2sp-pglite-'));
  const now = new Date();
  const resource = sampleResource({ expiresAt: new Date(now.getTime() + 60_000) });
  try {
    const writer = await openS2spDatabase({ dataDir });
    const writerStore = new PrismaResourceStore(writer);
    const saved = await writerStore.save(resource);
    // As a Nest app closes: the store's shutdown hook (which finishes background table writes) before the database.
    await writerStore.beforeApplicationShutdown();
    await writer.close();

    const reader = await openS2spDatabase({ dataDir });
    try {
      assert.deepEqual(reader.appliedMigrations, []);
      const store = new PrismaResourceStore(reader);
      assert.deepEqual(await store.findLive(resource.tokenHash, now), saved);
      const claimed = await store.claim(resource.tokenHash, now);
      assert.ok(claimed);
      assert.deepEqual(claimed.table.rows, resource.table.rows);
    } finally {
      await reader.close();
    }

    const third = await openS2spDatabase({ dataDir });
    try {
      const store = new PrismaResourceStore(third);
      assert.equal(await store.claim(resource.tokenHash, now), null, 'consumption must persist too');
    } finally {
      await third.close();
    }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
