import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

import type { SqlChannel, SqlQuery } from '@s2sp/platform';

export type { SqlChannel, SqlQuery };

const MAX_PREPARED_STATEMENTS = 200;

/**
 * SQL on a pg pool. With `preparedStatements` (the default) each distinct statement is prepared
 * once per connection and then only bound and executed: PostgreSQL skips parsing and planning
 * it again (about half a millisecond of a resource's insert on our development VM). A connection
 * pooler between this process and PostgreSQL must then keep prepared statements per client
 * (PgBouncer ≥ 1.21 with `max_prepared_statements` > 0), or this is turned off.
 */
export function pgSqlChannel(
  pool: Pool,
  { preparedStatements = true }: { preparedStatements?: boolean } = {},
): SqlChannel {
  const names = new Map<string, string>();
  const statementName = (text: string): string | undefined => {
    if (!preparedStatements) return undefined;
    let name = names.get(text);
    // The statements of this library are a few dozen constant texts; a bound keeps anything else unprepared.
    if (name === undefined && names.size < MAX_PREPARED_STATEMENTS) names.set(text, (name = `s2sp_${names.size + 1}`));
    return name;
  };
  const on = (client: Pool | PoolClient): SqlQuery => ({
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      (await client.query({ name: statementName(text), text, values: params as unknown[] | undefined })).rows as Row[],
  });
  return {
    ...on(pool),
    async transaction<T>(work: (sql: SqlQuery) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken: Error | undefined;
      try {
        await client.query('BEGIN');
        const result = await work(on(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot roll back is discarded rather than returned to the pool mid-transaction.
        await client.query('ROLLBACK').catch((rollbackError: unknown) => {
          broken = rollbackError instanceof Error ? rollbackError : new Error('ROLLBACK failed');
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
  };
}

export function pgliteSqlChannel(db: PGlite): SqlChannel {
  const on = (target: PGlite | Transaction): SqlQuery => ({
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      (await target.query<Row>(text, params as unknown[])).rows,
  });
  return {
    ...on(db),
    transaction: <T>(work: (sql: SqlQuery) => Promise<T>) => db.transaction((tx) => work(on(tx))),
  };
}
