import type { PGlite, Transaction } from '@electric-sql/pglite';
import type { Pool, PoolClient } from 'pg';

/** Runs one SQL statement with positional parameters ($1, $2, …) and returns its rows. */
export interface SqlQuery {
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * SQL on the database's own driver (the pg pool, or the PGlite instance),
 * beside the Prisma client: for statements whose values are megabytes of text,
 * which Prisma copies through its query engine several times over. Column
 * values come back as the driver parses them (jsonb as objects, timestamptz as Date).
 */
export interface SqlChannel extends SqlQuery {
  /** Runs `work` on one connection inside a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: SqlQuery) => Promise<T>): Promise<T>;
}

export function pgSqlChannel(pool: Pool): SqlChannel {
  const on = (client: Pool | PoolClient): SqlQuery => ({
    query: async <Row>(text: string, params?: readonly unknown[]) => (await client.query(text, params as unknown[])).rows as Row[],
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
    query: async <Row>(text: string, params?: readonly unknown[]) => (await target.query<Row>(text, params as unknown[])).rows,
  });
  return {
    ...on(db),
    transaction: <T>(work: (sql: SqlQuery) => Promise<T>) => db.transaction((tx) => work(on(tx))),
  };
}
