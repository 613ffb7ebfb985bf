import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Client } from 'pg';
import { isDatabaseUnavailable } from '@s2sp/platform/internal';
import { freePort } from '../support/free-port';

describe('isDatabaseUnavailable: an outage, told apart from a bad query or a bug', () => {
  test("what node-postgres and Prisma's pg adapter raise when the server is down, restarting or gone", () => {
    const outages: unknown[] = [
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
      Object.assign(new Error('connection failure'), { code: '08006' }),
      Object.assign(new Error('sorry, too many clients already'), { code: '53300' }),
      new Error('Connection terminated unexpectedly'),
      // PrismaClientKnownRequestError as the pg adapter reports an unreachable server …
      Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), {
        name: 'PrismaClientKnownRequestError',
        code: 'P1001',
      }),
      // … and a raw query's failure, whose code says nothing but whose adapter error does.
      Object.assign(new Error('Raw query failed. Code: `N/A`.'), {
        name: 'PrismaClientKnownRequestError',
        code: 'P2010',
        meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'ConnectionClosed' } } },
      }),
      Object.assign(new Error('Raw query failed.'), {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'postgres', code: '57P01' } } },
      }),
      new Error('the task could not be saved', { cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }) }),
      new AggregateError([Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })], 'connect failed'),
    ];
    for (const error of outages) assert.equal(isDatabaseUnavailable(error), true, String(error));
  });

  test('a bad query, a constraint, a bug or nothing at all is not an outage', () => {
    const others: unknown[] = [
      Object.assign(new Error('duplicate key value violates unique constraint'), { code: '23505' }),
      Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }),
      Object.assign(new Error('Unique constraint failed'), { code: 'P2002' }),
      Object.assign(new Error('Raw query failed.'), {
        code: 'P2010',
        meta: { driverAdapterError: { cause: { kind: 'postgres', code: '22P02' } } },
      }),
      new TypeError("Cannot read properties of undefined (reading 'rows')"),
      'ECONNREFUSED',
      undefined,
      null,
    ];
    for (const error of others) assert.equal(isDatabaseUnavailable(error), false, String(error));
  });

  test('a cause chain that loops back on itself is judged without running forever', () => {
    const looping = new Error('outer') as Error & { cause?: unknown };
    looping.cause = new Error('inner', { cause: looping });
    assert.equal(isDatabaseUnavailable(looping), false);
  });

  test('the error of a real node-postgres client whose server is not there', async () => {
    const client = new Client({
      host: '127.0.0.1',
      port: await freePort(),
      user: 'nobody',
      connectionTimeoutMillis: 5_000,
    });
    const error = await client.connect().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    assert.ok(error, 'nothing listens on the port');
    assert.equal(isDatabaseUnavailable(error), true, String(error));
  });
});
