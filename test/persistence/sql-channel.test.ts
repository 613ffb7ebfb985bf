import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Pool } from 'pg';
import { pgSqlChannel } from '../../libs/database/src/sql-channel';
import { postgresOrSkip, postgresTestUrl } from '../support/databases';

const STATEMENT = 'SELECT $1::int + 1 AS next';

/** The statements prepared on the pool's one connection, after running STATEMENT twice through the channel. */
async function preparedAfterTwoRuns(options: { preparedStatements?: boolean }): Promise<string[]> {
  const pool = new Pool({ connectionString: postgresTestUrl(), max: 1 });
  try {
    const sql = pgSqlChannel(pool, options);
    assert.deepEqual(await sql.query(STATEMENT, [1]), [{ next: 2 }]);
    assert.deepEqual(await sql.transaction((inside) => inside.query(STATEMENT, [2])), [{ next: 3 }]);
    const rows = await pool.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements');
    return rows.rows.map((row) => row.statement);
  } finally {
    await pool.end();
  }
}

describe('pgSqlChannel', () => {
  test('prepares each statement once per connection by default, and reuses it', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    assert.deepEqual(await preparedAfterTwoRuns({}), [STATEMENT]);
  });

  test('preparedStatements: false leaves every statement unprepared (for poolers that cannot keep them)', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    assert.deepEqual(await preparedAfterTwoRuns({ preparedStatements: false }), []);
  });
});
