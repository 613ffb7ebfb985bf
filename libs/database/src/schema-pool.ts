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
  // A connection the server drops (a restart, a crash) emits 'error': the pool handles it for an idle
  // client; a checked-out one (a transaction under way) would crash the process without a listener.
  // Its query fails with the same error, which is where it is handled.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  return pool;
}
