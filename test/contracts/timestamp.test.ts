import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS } from '../../libs/contracts/src';
import { timestampToMs, toTimestamp } from '../../libs/contracts/src/internal';
import { timestampToDate } from '../../libs/contracts/src/timestamp';

type MethodDefinition = protoLoader.MethodDefinition<Record<string, any>, Record<string, any>>;
const invokeTool = (
  protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS })['s2sp.v1.ToolService'] as unknown as Record<
    string,
    MethodDefinition
  >
).InvokeTool;

describe('Timestamp conversion', () => {
  test('epoch ms and Date convert to seconds + nanos', () => {
    assert.deepEqual(toTimestamp(1_719_500_000_123), { seconds: '1719500000', nanos: 123_000_000 });
    assert.deepEqual(toTimestamp(new Date(0)), { seconds: '0', nanos: 0 });
  });

  test('times before 1970 keep nanos non-negative as the proto requires', () => {
    assert.deepEqual(toTimestamp(-1), { seconds: '-1', nanos: 999_000_000 });
    assert.equal(timestampToMs(toTimestamp(-1)), -1);
  });

  test('round-trips through protobuf bytes', () => {
    const ms = Date.UTC(2025, 9, 14, 8, 30, 0, 999);
    const bytes = invokeTool.requestSerialize({ deadline: toTimestamp(ms) });
    const decoded = invokeTool.requestDeserialize(bytes);
    assert.equal(timestampToMs(decoded.deadline), ms);
    assert.equal(timestampToDate(decoded.deadline)?.toISOString(), '2025-10-14T08:30:00.999Z');
  });

  test('unset timestamps give undefined; numeric seconds and sub-ms nanos are accepted', () => {
    assert.equal(timestampToMs(null), undefined);
    assert.equal(timestampToDate(undefined), undefined);
    assert.equal(timestampToMs({ seconds: 2, nanos: 1_999_999 }), 2001);
  });

  test('invalid times are rejected', () => {
    assert.throws(() => toTimestamp(Number.NaN), RangeError);
    assert.throws(() => toTimestamp(new Date('nope')), RangeError);
  });
});
