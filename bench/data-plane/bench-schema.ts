import { randomBytes } from 'node:crypto';
import { Pool } from 'pg';

/** A fresh PostgreSQL schema name for one bench run, and the URL that selects it. */
export function freshSchemaUrl(baseUrl: string): { schema: string; url: string } {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const url = new URL(baseUrl);
  url.searchParams.set('schema', schema);
  return { schema, url: url.toString() };
}

export async function dropSchemas(baseUrl: string, schemas: readonly string[]): Promise<void> {
  const pool = new Pool({ connectionString: baseUrl });
  try {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}
