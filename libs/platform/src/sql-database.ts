/**
 * Runs one SQL statement with positional parameters ($1, $2, …) and returns its rows.
 * @public
 */
export interface SqlQuery {
  query<Row>(text: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * SQL on a database's own driver (a pg pool, or a PGlite instance): for
 * statements whose values are megabytes of text. Column values come back as
 * the driver parses them (jsonb as objects, timestamptz as Date).
 * @public
 */
export interface SqlChannel extends SqlQuery {
  /** Runs `work` on one connection inside a transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (sql: SqlQuery) => Promise<T>): Promise<T>;
}

/**
 * What a component that stores through SQL needs of an open database: its
 * driver channel, and closing it. `S2spDatabase` of `@s2sp/database` is one;
 * naming this instead keeps a user of those components free of that package's types.
 * @internal
 */
export interface SqlDatabase {
  readonly sql: SqlChannel;
  /** `pglite`: an in-process database no other process reaches; `postgres`: a server. */
  readonly kind?: 'pglite' | 'postgres';
  close(): Promise<void>;
}
