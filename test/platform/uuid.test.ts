import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isUuid, uuidV7 } from '../../libs/platform/src/uuid';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('uuidV7', () => {
  test('is a version-7, RFC 9562-variant UUID carrying its millisecond timestamp', () => {
    const at = Date.parse('2026-11-22T12:00:00Z');
    const id = uuidV7(at);
    assert.match(id, V7);
    assert.equal(parseInt(id.replace(/-/g, '').slice(0, 12), 16), at);
    assert.ok(isUuid(id));
  });

  test('sorts by time, and ids of the same millisecond differ in their random bits', () => {
    assert.ok(uuidV7(1_700_000_000_000) < uuidV7(1_700_000_000_001));
    const sameMs = new Set(Array.from({ length: 1000 }, () => uuidV7(1_700_000_000_000)));
    assert.equal(sameMs.size, 1000);
  });

  test('timestamps from the epoch to the 48-bit limit keep the layout', () => {
    assert.equal(uuidV7(0).slice(0, 13), '00000000-0000');
    assert.match(uuidV7(2 ** 48 - 1), /^ffffffff-ffff-7/);
  });
});

describe('isUuid', () => {
  test('accepts any version in canonical form, either case, and nothing else', () => {
    assert.ok(isUuid('6F9619FF-8B86-D011-B42D-00C04FC964FF'));
    assert.ok(!isUuid('my-task'));
    assert.ok(!isUuid('6f9619ff8b86d011b42d00c04fc964ff'));
  });
});
