import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

import type { SqlChannel, SqlQuery } from '@s2sp/platform';

export type { SqlChannel, SqlQuery };

export function pgSqlChannel(pool: Pool): SqlChannel {
  const on = (client: Pool | PoolClient): SqlQuery => ({
    query: async <Row>(text: string, params?: readonly unknown[]) =>
      (await client.query(text, params as unknown[])).rows as Row[],
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
