import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { JSON_RPC_MODULE_OPTIONS, JsonRpcError, JsonRpcMethod, JsonRpcModule } from '@s2sp/json-rpc';
import { DEFAULT_JSON_RPC_OPTIONS, JsonRpcMethodRegistry } from '@s2sp/json-rpc/internal';
import { mapWithConcurrency } from '../../libs/json-rpc/src/bounded-concurrency';
import { resolveJsonRpcOptions } from '../../libs/json-rpc/src/json-rpc-module-options';
import { checkParamsShape } from '../../libs/json-rpc/src/params-shape-limits';
import { postRaw } from './jsonrpc-test-app';

const CONFIG = Symbol('CONFIG');

@Injectable()
class PingMethods {
  @JsonRpcMethod('ping')
  ping(): string {
    return 'pong';
  }
}

@Module({ providers: [{ provide: CONFIG, useValue: { batch: 2 } }], exports: [CONFIG] })
class ConfigModule {}

describe('JsonRpcModule', () => {
  test('forRootAsync resolves options from injected providers', async () => {
    @Module({
      imports: [
        JsonRpcModule.forRootAsync({
          imports: [ConfigModule],
          inject: [CONFIG],
          useFactory: async (config: { batch: number }) => ({ maxBatchSize: config.batch }),
        }),
      ],
      providers: [PingMethods],
    })
    class AppModule {}

    const app = await NestFactory.create(AppModule, { bodyParser: false, logger: false });
    await app.listen(0, '127.0.0.1');
    try {
      const url = `${await app.getUrl()}/rpc`;
      const options = app.get(JSON_RPC_MODULE_OPTIONS);
      assert.equal(options.maxBatchSize, 2);
      assert.equal(options.batchConcurrency, DEFAULT_JSON_RPC_OPTIONS.batchConcurrency);
      assert.deepEqual(
        app
          .get(JsonRpcMethodRegistry)
          .list()
          .map((m) => m.metadata.name)
          .sort(),
        ['ping', 'rpc.discover'],
      );
      const three = Array.from({ length: 3 }, (_, id) => ({ jsonrpc: '2.0', method: 'ping', id }));
      assert.equal(((await postRaw(url, JSON.stringify(three))).json as any).error.data.max_batch_size, 2);
      assert.deepEqual((await postRaw(url, JSON.stringify(three.slice(0, 2)))).json, [
        { jsonrpc: '2.0', result: 'pong', id: 0 },
        { jsonrpc: '2.0', result: 'pong', id: 1 },
      ]);
    } finally {
      await app.close();
    }
  });

  test('two handlers for one method name fail at startup', async () => {
    @Injectable()
    class Duplicate {
      @JsonRpcMethod('ping')
      again(): string {
        return 'again';
      }
    }
    @Module({ imports: [JsonRpcModule.forRoot()], providers: [PingMethods, Duplicate] })
    class AppModule {}
    const app = await NestFactory.create(AppModule, { bodyParser: false, logger: false, abortOnError: false });
    try {
      await assert.rejects(app.init(), /declared twice/);
    } finally {
      await app.close().catch(() => undefined);
    }
  });

  test('options are validated', () => {
    assert.throws(() => resolveJsonRpcOptions({ maxBatchSize: 0 }), /maxBatchSize/);
    assert.throws(() => resolveJsonRpcOptions({ batchConcurrency: 1.5 }), /batchConcurrency/);
    assert.throws(() => resolveJsonRpcOptions({ defaultDeadlineMs: 10, maxDeadlineMs: 5 }), /defaultDeadlineMs/);
    assert.throws(() => resolveJsonRpcOptions({ maxParamsDepth: 0 }), /maxParamsDepth/);
    assert.deepEqual(resolveJsonRpcOptions(), DEFAULT_JSON_RPC_OPTIONS);
  });

  test('default params shape limits: depth 32 passes, 33 does not', () => {
    const nest = (depth: number): unknown => (depth === 1 ? {} : { a: nest(depth - 1) });
    assert.doesNotThrow(() => checkParamsShape(nest(32), DEFAULT_JSON_RPC_OPTIONS));
    assert.throws(
      () => checkParamsShape(nest(33), DEFAULT_JSON_RPC_OPTIONS),
      (error: unknown) => {
        assert.ok(error instanceof JsonRpcError);
        assert.deepEqual(
          { code: error.code, limit: error.data?.limit, max: error.data?.max },
          { code: -32602, limit: 'maxParamsDepth', max: 32 },
        );
        return true;
      },
    );
  });

  test('the reserved rpc. namespace and positional without a DTO are refused at decoration', () => {
    assert.throws(() => JsonRpcMethod('rpc.mine'), /reserved/);
    assert.throws(() => JsonRpcMethod('x', { positional: ['a'] }), /positional/);
  });
});

describe('mapWithConcurrency', () => {
  test('keeps order, bounds parallelism, handles empty input', async () => {
    let active = 0;
    let peak = 0;
    const out = await mapWithConcurrency([5, 1, 3, 2, 4], 2, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((resolve) => setTimeout(resolve, n * 3));
      active--;
      return n * 10;
    });
    assert.deepEqual(out, [50, 10, 30, 20, 40]);
    assert.equal(peak, 2);
    assert.deepEqual(await mapWithConcurrency([], 4, async () => 1), []);
  });
});
