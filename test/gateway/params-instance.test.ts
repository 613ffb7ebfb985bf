import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsInt, IsObject, IsOptional, ValidateNested } from 'class-validator';
import { JsonRpcError } from '../../libs/json-rpc/src/json-rpc-error';
import { bindParams } from '../../libs/json-rpc/src/params-binder';
import { toParamsInstance } from '../../libs/json-rpc/src/params-instance';

class FlatParams {
  @IsInt()
  count!: number;

  @IsOptional()
  @IsObject()
  payload?: Record<string, unknown>;

  @IsOptional()
  @IsInt()
  limit = 10;
}

class Inner {
  @IsInt()
  value!: number;
}

class NestedParams {
  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;
}

const method = (params: new () => object) => ({ name: 'm', params }) as Parameters<typeof bindParams>[0];

describe('params become DTO instances', () => {
  test('a DTO without class-transformer decorators: an instance with the values, defaults kept, payloads not copied', () => {
    const payload = { rows: [{ a: 1 }] };
    const instance = toParamsInstance(FlatParams, { count: 3, payload }) as FlatParams;
    assert.ok(instance instanceof FlatParams);
    assert.equal(instance.count, 3);
    assert.equal(instance.limit, 10);
    assert.equal(instance.payload, payload, 'opaque payloads are passed on, not deep-copied');
  });

  test('a DTO with @Type still gets class instances for its nested objects', async () => {
    const bound = (await bindParams(method(NestedParams), { inner: { value: 2 } })) as NestedParams;
    assert.ok(bound.inner instanceof Inner);
    await assert.rejects(bindParams(method(NestedParams), { inner: { value: 'two' } }), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.match(JSON.stringify(error.data), /inner\.value/);
      return true;
    });
  });

  test('a "__proto__" member is refused as an unknown property, and swaps no prototype', async () => {
    const params = JSON.parse('{"count": 1, "__proto__": {"polluted": true}}') as Record<string, unknown>;
    await assert.rejects(bindParams(method(FlatParams), params), (error: unknown) => {
      assert.ok(error instanceof JsonRpcError);
      assert.equal(error.code, -32602);
      assert.match(JSON.stringify(error.data), /__proto__/);
      return true;
    });
    await assert.rejects(bindParams(method(NestedParams), { ...params, inner: { value: 1 } }), /Invalid params/);
    assert.throws(() => toParamsInstance(FlatParams, params), /Invalid params/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('members named like Object.prototype properties are refused by name on DTOs, at any depth, not thrown on', async () => {
    for (const key of ['constructor', 'toString', 'hasOwnProperty', 'valueOf']) {
      for (const [dto, params, path] of [
        [FlatParams, { count: 1, [key]: null }, key],
        [NestedParams, { inner: { value: 1, [key]: null } }, `inner.${key}`],
      ] as const) {
        await assert.rejects(bindParams(method(dto), params), (error: unknown) => {
          assert.ok(error instanceof JsonRpcError);
          assert.equal(error.code, -32602);
          assert.deepEqual(error.data, {
            fields: [{ path, constraints: { whitelistValidation: `property ${key} should not exist` } }],
          });
          return true;
        });
      }
    }
  });

  test('such names inside opaque payloads are data: passed on as sent, also next to nested DTOs', async () => {
    const payload = { constructor: 'a column', toString: { valueOf: 1 }, hasOwnProperty: [{ constructor: null }] };
    const flat = (await bindParams(method(FlatParams), { count: 1, payload })) as FlatParams;
    assert.equal(flat.payload, payload);
    class WithPayload extends NestedParams {
      @IsOptional()
      @IsObject()
      payload?: Record<string, unknown>;
    }
    const nested = (await bindParams(method(WithPayload), { inner: { value: 1 }, payload })) as WithPayload;
    assert.ok(nested.inner instanceof Inner);
    assert.deepEqual(nested.payload, payload);
  });
});
