import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lastValueFrom, of, throwError, toArray } from 'rxjs';
import {
  isToolErrorResult,
  reportToolErrors,
  toolErrorResult,
  toolJsonResult,
} from '../../libs/s2sp/src/protocol/tool-result';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';

function recordingLogger(): {
  error: (...args: unknown[]) => void;
  warn: (...args: unknown[]) => void;
  calls: unknown[][];
  warnings: unknown[][];
} {
  const calls: unknown[][] = [];
  const warnings: unknown[][] = [];
  return {
    calls,
    warnings,
    error: (...args: unknown[]) => void calls.push(args),
    warn: (...args: unknown[]) => void warnings.push(args),
  };
}

describe('S2spToolError', () => {
  test('is an Error named S2spToolError carrying the message', () => {
    const error = new S2spToolError('bad input');
    assert.ok(error instanceof Error);
    assert.equal(error.name, 'S2spToolError');
    assert.equal(error.message, 'bad input');
  });
});

describe('toolJsonResult', () => {
  test('the same JSON as text content and as structuredContent', () => {
    const structured = { total_rows: 2, abstract: [{ _row_id: 0, event: 'A' }] };
    const result = toolJsonResult(structured);
    assert.equal(result.isError, undefined);
    assert.deepEqual(result, {
      content: [{ type: 'text', text: '{"total_rows":2,"abstract":[{"_row_id":0,"event":"A"}]}' }],
      structuredContent: structured,
    });
    assert.deepEqual(JSON.parse(result.content[0].text), structured);
  });

  test('a separate text value: what the model reads can differ from structuredContent', () => {
    const result = toolJsonResult({ result: [{ a: 1 }] }, [{ a: 1 }]);
    assert.equal(result.content[0].text, '[{"a":1}]');
    assert.deepEqual(result.structuredContent, { result: [{ a: 1 }] });
  });

  test('one text content item, compact JSON (no pretty-printing whitespace)', () => {
    const result = toolJsonResult({ a: { b: [1, 2] } });
    assert.equal(result.content.length, 1);
    assert.equal(result.content[0].text, '{"a":{"b":[1,2]}}');
  });
});

describe('toolErrorResult', () => {
  test('an S2spToolError becomes an isError result with its message, and is not logged', () => {
    const logger = recordingLogger();
    const result = toolErrorResult(new S2spToolError('abstract_domains names no column'), logger);
    assert.deepEqual(result, { content: [{ type: 'text', text: 'abstract_domains names no column' }], isError: true });
    assert.equal(logger.calls.length, 0);
  });

  test('any other Error is reported without its details and logged with name, message and stack', () => {
    const logger = recordingLogger();
    const error = new TypeError('secret internal detail at /srv/app');
    const result = toolErrorResult(error, logger);
    assert.deepEqual(result, {
      content: [{ type: 'text', text: 'The S2SP tool failed unexpectedly; see the server log.' }],
      isError: true,
    });
    assert.ok(!JSON.stringify(result).includes('secret'));
    assert.equal(logger.calls.length, 1);
    assert.equal(logger.calls[0][0], 'TypeError: secret internal detail at /srv/app');
    assert.equal(logger.calls[0][1], error.stack);
  });

  test('a database that cannot be reached is a retryable UNAVAILABLE tool error, logged as a warning without a stack', () => {
    const logger = recordingLogger();
    const unreachable = Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' });
    const result = toolErrorResult(unreachable, logger);
    assert.equal(result.isError, true);
    assert.match(String(result.content[0].text), /database is unavailable right now; call the tool again in 1 s/);
    assert.deepEqual(result._meta, { 's2sp/error_code': 'UNAVAILABLE' });
    assert.equal(logger.calls.length, 0);
    assert.equal(logger.warnings.length, 1);
    assert.match(String(logger.warnings[0][0]), /127\.0\.0\.1:5432/);
  });

  test('a thrown non-Error value is logged generically', () => {
    const logger = recordingLogger();
    const result = toolErrorResult('a string', logger);
    assert.equal(result.isError, true);
    assert.equal(result.content[0].text, 'The S2SP tool failed unexpectedly; see the server log.');
    assert.deepEqual(logger.calls, [['non-Error thrown', undefined]]);
  });
});

describe('isToolErrorResult', () => {
  test('true only for objects with a content array and isError === true', () => {
    assert.equal(isToolErrorResult({ content: [], isError: true }), true);
    assert.equal(isToolErrorResult(toolErrorResult(new S2spToolError('x'), recordingLogger())), true);
    assert.equal(isToolErrorResult(toolJsonResult({ a: 1 })), false);
    assert.equal(isToolErrorResult({ content: [], isError: false }), false);
    assert.equal(isToolErrorResult({ content: [], isError: 'true' }), false);
    assert.equal(isToolErrorResult({ content: 'x', isError: true }), false);
    assert.equal(isToolErrorResult({ isError: true }), false);
    assert.equal(isToolErrorResult(null), false);
    assert.equal(isToolErrorResult(undefined), false);
    assert.equal(isToolErrorResult('error'), false);
  });
});

describe('reportToolErrors', () => {
  test('passes values through', async () => {
    assert.deepEqual(await lastValueFrom(of(1, 2, 3).pipe(reportToolErrors(), toArray())), [1, 2, 3]);
  });

  test('turns a thrown S2spToolError into an isError result', async () => {
    const result = await lastValueFrom(
      throwError(() => new S2spToolError('Unknown column: colour')).pipe(reportToolErrors()),
    );
    assert.deepEqual(result, { content: [{ type: 'text', text: 'Unknown column: colour' }], isError: true });
  });

  test('rethrows any other error unchanged (left to Nest)', async () => {
    const boom = new RangeError('boom');
    await assert.rejects(
      lastValueFrom(throwError(() => boom).pipe(reportToolErrors())),
      (error: unknown) => error === boom,
    );
  });
});
