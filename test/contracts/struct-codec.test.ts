import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, fromStruct, toStruct, type JsonObject } from '../../libs/contracts/src';
import { toJsonObject } from '../../libs/contracts/src/internal';
import { fromValue, toValue } from '../../libs/contracts/src/struct-codec';

type MethodDefinition = protoLoader.MethodDefinition<Record<string, any>, Record<string, any>>;
const invokeTool = (
  protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS })['s2sp.v1.ToolService'] as unknown as Record<
    string,
    MethodDefinition
  >
).InvokeTool;

const nested: JsonObject = {
  nothing: null,
  yes: true,
  no: false,
  zero: 0,
  negative: -17.25,
  big: 1e21,
  text: 'Wind Advisory — gusts to 55 mph',
  empty: '',
  list: [1, 'two', null, false, [3, [4]], { five: 5 }],
  emptyList: [],
  emptyObject: {},
  deep: { a: { b: { c: { d: ['e'] } } } },
};

describe('Struct codec', () => {
  test('nested JSON round-trips in memory', () => {
    assert.deepEqual(fromStruct(toStruct(nested)), nested);
    for (const value of Object.values(nested)) assert.deepEqual(fromValue(toValue(value)), value);
  });

  test('nested JSON round-trips through protobuf bytes (proto-loader shapes)', () => {
    const bytes = invokeTool.requestSerialize({ invocation_id: 'i', input_params: toStruct(nested) });
    const decoded = invokeTool.requestDeserialize(bytes);
    assert.deepEqual(fromStruct(decoded.input_params), nested);
  });

  test('produces the camelCase Value members protobufjs bundles', () => {
    assert.deepEqual(toValue('x'), { stringValue: 'x' });
    assert.deepEqual(toValue(null), { nullValue: 'NULL_VALUE' });
    assert.deepEqual(toStruct({ a: [true] }), { fields: { a: { listValue: { values: [{ boolValue: true }] } } } });
  });

  test('reads snake_case Values and the oneof discriminator too', () => {
    const struct = {
      fields: {
        s: { string_value: 'x' },
        n: { kind: 'number_value', number_value: 2 },
        l: { list_value: { values: [{ bool_value: true }, { null_value: 0 }] } },
        o: { struct_value: { fields: { k: { stringValue: 'v' } } } },
      },
    };
    assert.deepEqual(fromStruct(struct as never), { s: 'x', n: 2, l: [true, null], o: { k: 'v' } });
  });

  test('follows JSON.stringify for undefined, functions and toJSON', () => {
    const when = new Date(Date.UTC(2025, 9, 14));
    const struct = toStruct({ gone: undefined, fn: () => 1, when, list: [undefined, 1] });
    assert.deepEqual(fromStruct(struct), { when: '2025-10-14T00:00:00.000Z', list: [null, 1] });
  });

  test('rejects what JSON cannot carry', () => {
    assert.throws(() => toValue(Number.NaN), TypeError);
    assert.throws(() => toValue(Number.POSITIVE_INFINITY), TypeError);
    assert.throws(() => toValue(10n), TypeError);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => toStruct(cyclic), /circular/);
  });

  test('shared (non-circular) references are fine', () => {
    const shared = { x: 1 };
    assert.deepEqual(fromStruct(toStruct({ a: shared, b: [shared, shared] })), {
      a: { x: 1 },
      b: [{ x: 1 }, { x: 1 }],
    });
  });

  test('null and unset decode to empty object / null', () => {
    assert.deepEqual(fromStruct(null), {});
    assert.deepEqual(fromStruct({}), {});
    assert.equal(fromValue(undefined), null);
    assert.equal(fromValue({}), null);
  });

  // Found by fuzzing (test/fuzz/parsers.fuzz.test.ts): assigning a member named
  // __proto__ ran the prototype setter, so the member vanished on the way.
  test('a member named __proto__ (legal JSON) survives encoding, decoding and the plain-JSON normalizer as an own member', () => {
    const value = JSON.parse('{"__proto__":{"polluted":1},"constructor":2,"prototype":[3]}') as JsonObject;
    const normalized = toJsonObject(value);
    const struct = toStruct(value);
    const back = fromStruct(struct);
    for (const object of [normalized, back]) {
      assert.equal(Object.getPrototypeOf(object), Object.prototype);
      assert.deepEqual(Object.keys(object), ['__proto__', 'constructor', 'prototype']);
      assert.equal(JSON.stringify(object), '{"__proto__":{"polluted":1},"constructor":2,"prototype":[3]}');
      assert.equal((object as Record<string, unknown>).polluted, undefined);
    }
    assert.ok(Object.prototype.hasOwnProperty.call(struct.fields, '__proto__'));
    assert.deepEqual(
      fromStruct({ fields: JSON.parse('{"__proto__":{"numberValue":0}}') }),
      JSON.parse('{"__proto__":0}'),
    );
  });
});
