import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ResourcePublisher, S2spModule, type ClaimedResource } from '@s2sp/core';
import { ResourceTableNotStoredError } from '../../libs/s2sp/src/store/resource-table-not-stored.error';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { MemoryResourceStore } from '../support/memory-resource-store';
import { sampleRows } from '../support/resource-fixtures';

/** A replica whose claims find the table still being written by another process, until `tableStored` is set. */
class ReplicaWaitingForTable extends MemoryResourceStore {
  tableStored = false;

  override async claim(tokenHash: string, now?: Date): Promise<ClaimedResource | null> {
    if (!this.tableStored) throw new ResourceTableNotStoredError(15_000);
    return super.claim(tokenHash, now);
  }
}

test('a table still being written elsewhere answers 503 RESOURCE_NOT_READY with Retry-After, and the resource_url still works afterwards', async () => {
  const store = new ReplicaWaitingForTable();
  let baseUrl = '';
  @Module({
    imports: [
      S2spModule.forRoot({
        publicBaseUrl: () => baseUrl,
        dataPlaneAuth: 'capability',
        sweepIntervalMs: 0,
        resourceStore: { useValue: store },
      }),
    ],
  })
  class AppModule {}
  const app = await NestFactory.create(AppModule, { logger: false, bodyParser: false });
  await app.listen(0, '127.0.0.1');
  baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  try {
    const resourceUrl = await app.get(ResourcePublisher).publish('get_alerts', splitRows(sampleRows(3), ['event']));

    const early = await fetch(resourceUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(early.status, 503);
    assert.equal(early.headers.get('retry-after'), '1');
    assert.deepEqual(await early.json(), {
      error: {
        code: 'RESOURCE_NOT_READY',
        message:
          "The resource's table is still being stored by the server that issued it (waited 15000 ms); try again shortly.",
      },
    });

    store.tableStored = true;
    const later = await fetch(resourceUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(later.status, 200);
    assert.equal(((await later.json()) as { total_rows: number }).total_rows, 3);
  } finally {
    await app.close();
  }
});
