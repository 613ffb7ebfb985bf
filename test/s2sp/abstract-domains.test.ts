import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAbstractDomains } from '../../libs/s2sp/src/protocol/abstract-domains';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';

const LIMITS = { maxColumns: 5, maxColumnNameLength: 10 };

function refuses(raw: string, pattern: RegExp, limits = LIMITS): void {
  assert.throws(
    () => parseAbstractDomains(raw, limits),
    (error: unknown) => {
      assert.ok(error instanceof S2spToolError, `expected S2spToolError, got ${String(error)}`);
      assert.equal(error.name, 'S2spToolError');
      assert.match(error.message, pattern);
      return true;
    },
  );
}

describe('parseAbstractDomains', () => {
  describe('absent or blank means "plain MCP call"', () => {
    for (const raw of [undefined, null, '', '   ', '\t\n']) {
      test(`${JSON.stringify(raw)} → null`, () => {
        assert.equal(parseAbstractDomains(raw, LIMITS), null);
      });
    }
  });

  describe('comma-separated form', () => {
    test('splits and keeps the requested order', () => {
      assert.deepEqual(parseAbstractDomains('severity,event', LIMITS), ['severity', 'event']);
    });

    test('a single name', () => {
      assert.deepEqual(parseAbstractDomains('event', LIMITS), ['event']);
    });

    test('trims whitespace around the whole value and every name', () => {
      assert.deepEqual(parseAbstractDomains('  event ,  severity\t, urgency  ', LIMITS), [
        'event',
        'severity',
        'urgency',
      ]);
    });

    test('drops empty names from stray commas', () => {
      assert.deepEqual(parseAbstractDomains(',event,,severity,', LIMITS), ['event', 'severity']);
    });

    test('removes duplicates, keeping the first occurrence', () => {
      assert.deepEqual(parseAbstractDomains('event,severity,event, severity', LIMITS), ['event', 'severity']);
    });

    test('names are case-sensitive (Event and event are different columns)', () => {
      assert.deepEqual(parseAbstractDomains('Event,event', LIMITS), ['Event', 'event']);
    });

    test('only commas → error naming the parameter and giving an example', () => {
      refuses(',,, ,', /abstract_domains names no column.*"event,severity"/);
    });
  });

  describe('JSON array form', () => {
    test('parses a JSON array of strings', () => {
      assert.deepEqual(parseAbstractDomains('["event","severity"]', LIMITS), ['event', 'severity']);
    });

    test('accepts surrounding whitespace and trims each name', () => {
      assert.deepEqual(parseAbstractDomains('  [ " event ", "severity" ]  ', LIMITS), ['event', 'severity']);
    });

    test('drops blank names and duplicates', () => {
      assert.deepEqual(parseAbstractDomains('["event", "", "  ", "event", "status"]', LIMITS), ['event', 'status']);
    });

    test('a name with a comma inside is kept whole in the JSON form', () => {
      assert.deepEqual(parseAbstractDomains('["a,b"]', LIMITS), ['a,b']);
    });

    test('an empty array names no column', () => {
      refuses('[]', /abstract_domains names no column/);
    });

    test('invalid JSON → error saying it starts with "[" but is not valid JSON', () => {
      refuses('[event, severity', /starts with "\[" but is not a valid JSON array/);
      refuses('["event",]', /not a valid JSON array/);
    });

    test('non-string items → error asking for an array of strings', () => {
      refuses('[1, 2]', /must be an array of strings/);
      refuses('["event", null]', /must be an array of strings/);
      refuses('[["event"]]', /must be an array of strings/);
      refuses('[{"name":"event"}]', /must be an array of strings/);
    });

    test('a JSON object string is not the JSON form; it is a single comma-separated name', () => {
      // Only a leading "[" selects the JSON form.
      assert.deepEqual(parseAbstractDomains('{"a":1}', LIMITS), ['{"a":1}']);
    });
  });

  describe('limits', () => {
    test('exactly maxColumns is allowed', () => {
      assert.deepEqual(parseAbstractDomains('a,b,c,d,e', LIMITS), ['a', 'b', 'c', 'd', 'e']);
    });

    test('one more than maxColumns → error with both numbers', () => {
      refuses('a,b,c,d,e,f', /names 6 columns; at most 5 are allowed/);
      refuses('["a","b","c","d","e","f"]', /names 6 columns; at most 5 are allowed/);
    });

    test('the column limit counts distinct names, after duplicates are removed', () => {
      assert.deepEqual(parseAbstractDomains('a,b,c,d,e,a,b,c', LIMITS), ['a', 'b', 'c', 'd', 'e']);
    });

    test('a name of exactly maxColumnNameLength is allowed', () => {
      assert.deepEqual(parseAbstractDomains('abcdefghij', LIMITS), ['abcdefghij']);
    });

    test('a name one longer than maxColumnNameLength → error with the limit', () => {
      refuses('event,abcdefghijk', /column name longer than 10 characters/);
    });

    test('the too-long name is not echoed back (it could be huge)', () => {
      const huge = 'x'.repeat(5000);
      assert.throws(
        () => parseAbstractDomains(huge, LIMITS),
        (error: unknown) => error instanceof S2spToolError && !error.message.includes(huge.slice(0, 100)),
      );
    });

    test('length is measured after trimming', () => {
      assert.deepEqual(parseAbstractDomains('   abcdefghij   ', LIMITS), ['abcdefghij']);
    });
  });

  describe('_row_id is reserved', () => {
    test('naming _row_id alone is refused with a reason', () => {
      refuses('_row_id', /must not name _row_id.*carries it already/);
    });

    test('naming _row_id among other columns is refused', () => {
      refuses('event,_row_id', /must not name _row_id/);
      refuses('["event"," _row_id "]', /must not name _row_id/);
    });
  });
});
