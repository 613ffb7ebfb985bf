import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Logger } from '@nestjs/common';
import type { SqlQuery } from '@s2sp/platform';
import { ResourceTableAnalysis } from '../../libs/s2sp/src/store/resource-table-analysis';
import { ReservedRowFills } from '../../libs/s2sp/src/store/reserved-row-fills';
import type { ReservedRowFill } from '../../libs/s2sp/src/store/prisma-resource-store.sql';

/** A database that answers a fill with every id it was given, and records each statement's first word. */
function recordingSql(fail?: Error): { sql: SqlQuery; statements: string[] } {
  const statements: string[] = [];
  const sql: SqlQuery = {
    query: <Row>(text: string, params?: readonly unknown[]) => {
      statements.push(text.trim().split(/\s+/)[0]);
      if (fail && text.startsWith('ANALYZE')) return Promise.reject(fail);
      const ids = (params?.[1] as string[] | undefined) ?? [];
      return Promise.resolve(ids.map((id) => ({ id })) as Row[]);
    },
  };
  return { sql, statements };
}

const fill = (id: string): ReservedRowFill =>
  ({ id, token_hash: `hash-${id}`, block: null }) as unknown as ReservedRowFill;

test('the resource table is analyzed once as each threshold of rows filled is passed, however the rows arrive', async () => {
  const { sql, statements } = recordingSql();
  const analysis = new ResourceTableAnalysis(sql, [10, 100]);
  await analysis.filled(9);
  assert.deepEqual(statements, []);
  await analysis.filled(1);
  assert.deepEqual(statements, ['ANALYZE']);
  await analysis.filled(50);
  assert.deepEqual(statements, ['ANALYZE']);
  await analysis.filled(500);
  assert.deepEqual(statements, ['ANALYZE', 'ANALYZE']);
  await analysis.filled(10_000);
  assert.deepEqual(statements, ['ANALYZE', 'ANALYZE'], 'no threshold left');

  const { sql: jumping, statements: once } = recordingSql();
  await new ResourceTableAnalysis(jumping, [10, 100]).filled(1_000);
  assert.deepEqual(once, ['ANALYZE'], 'both thresholds passed at once: one analysis');
});

test('an analysis the database refuses is logged as a warning, and the fills go on', async (t) => {
  const warn = t.mock.method(Logger.prototype, 'warn', () => undefined);
  const { sql } = recordingSql(new Error('must be owner of table s2sp_resource'));
  await new ResourceTableAnalysis(sql, [1]).filled(1);
  assert.equal(warn.mock.callCount(), 1);
  assert.match(String(warn.mock.calls[0].arguments[0]), /Could not analyze s2sp_resource \(must be owner/);
});

test('the batched fills of reserved rows count the rows they filled toward the analysis', async () => {
  const { sql, statements } = recordingSql();
  const fills = new ReservedRowFills(sql, 1, new ResourceTableAnalysis(sql, [3]));
  assert.deepEqual(await Promise.all([fills.fill(fill('a')), fills.fill(fill('b'))]), [true, true]);
  assert.deepEqual(statements, ['WITH'], 'two fills, one statement, below the threshold');
  assert.equal(await fills.fill(fill('c')), true);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(statements, ['WITH', 'WITH', 'ANALYZE']);
});
