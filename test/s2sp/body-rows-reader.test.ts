import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { BodyRowsReader } from '../../libs/s2sp/src/consumer/body-rows-reader';
import { mulberry32 } from '@s2sp/platform';

/** Feeds the text in pieces cut at the given positions. */
function read(text: string, cuts: number[] = []): ReturnType<BodyRowsReader['finish']> {
  const reader = new BodyRowsReader();
  let from = 0;
  for (const cut of [...cuts, text.length]) {
    reader.push(text.slice(from, cut));
    from = cut;
  }
  return reader.finish();
}

const ANSWER = {
  body: [
    {
      _row_id: 0,
      description: 'Gusts "up to" 55 mph \\ {not a brace} [nor a bracket], "key": 1',
      nested: { a: [1, { b: '}' }] },
    },
    { _row_id: 2, description: 'ünïcödé \u2028 \u0000 😀', empty: {}, list: [] },
    { _row_id: 5, description: null, flag: true, n: -1.5e-3 },
  ],
  total_rows: 3,
  columns_returned: ['_row_id', 'description'],
};

describe('BodyRowsReader', () => {
  test('reads the body rows and the other members of an answer given whole', () => {
    const { body, members } = read(JSON.stringify(ANSWER));
    assert.deepEqual(body, ANSWER.body);
    assert.deepEqual({ ...members }, { total_rows: 3, columns_returned: ['_row_id', 'description'] });
  });

  test('gives the same result however the text is cut, including inside strings, escapes and numbers', () => {
    const text = JSON.stringify(ANSWER, null, 1);
    const random = mulberry32(7);
    for (let trial = 0; trial < 300; trial++) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 12) }, () => Math.floor(random() * text.length)).sort(
        (a, b) => a - b,
      );
      const { body, members } = read(text, cuts);
      assert.deepEqual(body, ANSWER.body, `cuts ${cuts.join(',')}`);
      assert.equal(members.total_rows, 3);
    }
    const { body } = read(
      text,
      Array.from({ length: text.length }, (_, i) => i),
    );
    assert.deepEqual(body, ANSWER.body, 'one character at a time');
  });

  test('members in any order, body last or first', () => {
    const text = `{"total_rows":1,"columns_returned":["_row_id"],"body":[{"_row_id":0}]}`;
    const { body, members } = read(text, [5, 30]);
    assert.deepEqual(body, [{ _row_id: 0 }]);
    assert.equal(members.total_rows, 1);
  });

  test('an error answer (S2SP or Python SDK style) has no body and keeps its error member', () => {
    assert.deepEqual(
      { ...read('{"error":{"code":"RESOURCE_NOT_FOUND","message":"gone"}}').members },
      { error: { code: 'RESOURCE_NOT_FOUND', message: 'gone' } },
    );
    const python = read('{"error": "Resource not found or expired"}', [10]);
    assert.equal(python.body, undefined);
    assert.equal(python.members.error, 'Resource not found or expired');
  });

  test('a "__proto__" column stays data', () => {
    const { body } = read('{"body":[{"_row_id":0,"__proto__":{"polluted":true}}]}');
    assert.equal(Object.getPrototypeOf(body![0]), Object.prototype);
    assert.deepEqual(Object.getOwnPropertyDescriptor(body![0], '__proto__')?.value, { polluted: true });
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('refuses what is not a complete JSON answer with object rows', () => {
    for (const text of [
      '{"body":[{"_row_id":0}',
      '{"body":[{"_row_id":0}, 1]}',
      '{"body":["x"]}',
      '{"body":[[1]]}',
      '{"body":[{"_row_id":0}]}}',
      '{"body":[{"_row_id":0,}]}',
      '{"body":[]} trailing',
      '',
      'null',
      '"text"',
    ]) {
      assert.throws(() => read(text), SyntaxError, text);
    }
  });

  test('answers that carry no body array have none', () => {
    assert.equal(read('{"body":"rows"}').body, undefined);
    assert.equal(read('{"rows":[{"_row_id":0}]}').body, undefined);
    assert.equal(read('[{"_row_id":0}]').body, undefined);
    assert.equal(read(' {"body":null}\n').body, undefined);
    assert.deepEqual(read('{"body":[]}').body, []);
  });
});
