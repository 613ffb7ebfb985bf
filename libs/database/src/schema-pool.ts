import { Pool } from 'pg';

const APPLICATION_NAME = 's2sp';

/**
 * A pool whose every connection works in `schema`: the schema engine and the pg adapter may use any of them.
 * Its sessions are named (pg_stat_activity.application_name) unless the URL names them.
 */
export function schemaPool(url: URL, schema: string): Pool {
  const pool = new Pool({
    connectionString: url.toString(),
    options: `-c search_path=${schema}`,
    application_name: url.searchParams.get('application_name') ?? APPLICATION_NAME,
  });
  pool.on('error', () => undefined); // an idle client dying (server restart) must not crash the process
  return pool;
}
