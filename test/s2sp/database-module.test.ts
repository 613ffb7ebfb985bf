import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DatabaseModule, type S2spDatabase } from '@s2sp/database';

const APP_DATABASE = Symbol('APP_DATABASE');

test('DatabaseModule provides a migrated database under the app’s token, globally, and closes it at shutdown', async () => {
  @Module({ imports: [DatabaseModule.forRoot({ provide: APP_DATABASE, dataDir: ':memory:' })] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  const database = app.get<S2spDatabase>(APP_DATABASE);
  assert.equal(await database.client.auditEvent.count(), 0, 'the schema is migrated');
  let closed = false;
  const close = database.close.bind(database);
  database.close = async () => {
    closed = true;
    await close();
  };
  await app.close();
  assert.equal(closed, true);
});
