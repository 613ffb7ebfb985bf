import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  AuthenticationError,
  bearerFromHeader,
  bearerHeader,
  LoggerAuditSink,
  RedactingConsoleLogger,
  redactDeep,
  redactTokens,
  type AuditEvent,
} from '../../libs/auth/src';

const JWT = 'eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhbGljZSJ9.MEUCIQDx3a-zv_Fo0b8e2JpS1xZ3Q4';
const RESOURCE = 'dK7xAbCdEfGhIjKlMnOpQrStUvWxYz0123456789abc'; // 43 chars

describe('redactTokens', () => {
  test('masks JWTs, Bearer credentials and S2SP resource tokens', () => {
    const line = `GET /x authorization: Bearer ${JWT} then token=${JWT}; url=http://127.0.0.1:3101/s2sp/data/${RESOURCE}?a=1 opaque="bearer abc123opaque"`;
    const redacted = redactTokens(line);
    assert.ok(!redacted.includes(JWT.slice(0, 40)));
    assert.ok(!redacted.includes(RESOURCE));
    assert.ok(!redacted.includes('abc123opaque'));
    assert.equal(
      redacted,
      'GET /x authorization: Bearer [redacted] then token=[redacted]; url=http://127.0.0.1:3101/s2sp/data/[redacted]?a=1 opaque="bearer [redacted]"',
    );
    assert.equal(redactTokens('Authorization: Basic YWxpY2U6c2VjcmV0'), 'Authorization: Basic [redacted]');
    assert.equal(redactTokens(`{"alg":"none"} eyJhbGciOiJub25lIn0.eyJzdWIiOiJhIn0.`), '{"alg":"none"} [redacted]');
  });

  test('leaves ordinary log text alone', () => {
    for (const text of [
      'weather-server.example.com listening on 127.0.0.1:3101',
      'version 1.2.3',
      'a basic check passed',
      'GET /s2sp/health 200',
    ]) {
      assert.equal(redactTokens(text), text);
    }
  });

  test('redactDeep masks credential fields and token-shaped strings in objects', () => {
    assert.deepEqual(redactDeep({ headers: { authorization: 'Token xyz' }, note: `see ${JWT}`, n: 1 }), {
      headers: { authorization: '[redacted]' },
      note: 'see [redacted]',
      n: 1,
    });
  });

  test('RedactingConsoleLogger never prints a token (text and JSON modes, messages and stacks)', () => {
    const written: string[] = [];
    const original = { out: process.stdout.write, err: process.stderr.write };
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    process.stdout.write = capture;
    process.stderr.write = capture;
    try {
      new RedactingConsoleLogger('Test').log(`caller sent Bearer ${JWT}`);
      new RedactingConsoleLogger('Test').error(
        `fetch of /s2sp/data/${RESOURCE} failed`,
        `Error: x\n    at /s2sp/data/${RESOURCE}`,
      );
      new RedactingConsoleLogger('Test', { json: true }).warn(`token ${JWT}`);
    } finally {
      process.stdout.write = original.out;
      process.stderr.write = original.err;
    }
    const output = written.join('');
    assert.ok(output.includes('caller sent Bearer [redacted]'), output);
    assert.ok(!output.includes(JWT.slice(0, 30)), output);
    assert.ok(!output.includes(RESOURCE), output);
    assert.ok(output.includes('[redacted]'));
  });

  test('LoggerAuditSink writes one JSON line per decision with nothing token-shaped', () => {
    const lines: Array<[string, string]> = [];
    const logger = {
      log: (m: string) => lines.push(['log', m]),
      warn: (m: string) => lines.push(['warn', m]),
      error: () => undefined,
    };
    const sink = new LoggerAuditSink(logger);
    const event: AuditEvent = {
      time: new Date().toISOString(),
      decision: 'deny',
      outcome: 'unauthenticated',
      authenticationFailure: 'bad-signature',
      delegatedBy: [],
      protocol: 's2sp-data',
      service: 'weather-server',
      operation: `POST /s2sp/data/${RESOURCE}`,
      requiredScopes: ['s2sp:data:read'],
      missingScopes: [],
      mutationClass: 'READ_ONLY',
    };
    sink.record(event);
    sink.record({ ...event, decision: 'allow', outcome: 'authorized' });
    assert.deepEqual(
      lines.map(([level]) => level),
      ['warn', 'log'],
    );
    assert.equal(JSON.parse(lines[0][1]).operation, 'POST /s2sp/data/[redacted]');
  });
});

describe('bearerFromHeader', () => {
  test('accepts "Bearer <token>" in any case', () => {
    assert.equal(bearerFromHeader(`Bearer ${JWT}`), JWT);
    assert.equal(bearerFromHeader(`bearer ${JWT}`), JWT);
    assert.equal(bearerFromHeader(`BEARER   ${JWT} `), JWT);
    assert.equal(bearerFromHeader([`Bearer ${JWT}`]), JWT);
    assert.equal(bearerHeader(JWT), `Bearer ${JWT}`);
  });

  test('rejects everything else, without echoing the header', () => {
    const cases: Array<[unknown, string]> = [
      [undefined, 'missing-token'],
      [null, 'missing-token'],
      ['', 'missing-token'],
      [[], 'missing-token'],
      ['Basic YWxpY2U6c2VjcmV0', 'malformed-authorization-header'],
      ['Bearer', 'malformed-authorization-header'],
      ['Bearer ', 'malformed-authorization-header'],
      [`Bearer${JWT}`, 'malformed-authorization-header'],
      [`Bearer ${JWT} extra`, 'malformed-authorization-header'],
      [`Token ${JWT}`, 'malformed-authorization-header'],
      [`Bearer ${JWT}\nX-Injected: 1`, 'malformed-authorization-header'],
      [[`Bearer ${JWT}`, 'Bearer other'], 'malformed-authorization-header'],
      [Buffer.from(`Bearer ${JWT}`), 'malformed-authorization-header'],
    ];
    for (const [value, reason] of cases) {
      assert.throws(
        () => bearerFromHeader(value as string),
        (error: unknown) =>
          error instanceof AuthenticationError && error.reason === reason && !error.message.includes(JWT.slice(0, 20)),
        JSON.stringify(value),
      );
    }
  });
});
