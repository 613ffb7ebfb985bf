// A process that owns an embedded PostgreSQL server, for tests that need a
// second process on the same data directory or an owner killed with SIGKILL.
//   node embedded-postgres-owner.js <dataDir> <value>
// Starts the server, inserts <value> into table `kept`, prints {"url":…} on
// one line, then idles until killed.
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../../libs/database/src/embedded-postgres-server';

async function main(): Promise<void> {
  const [dataDir, value] = process.argv.slice(2);
  const server = await startEmbeddedPostgres({ dataDir });
  const client = new Client({ connectionString: server.url });
  await client.connect();
  await client.query('CREATE TABLE IF NOT EXISTS kept (value text NOT NULL)');
  await client.query('INSERT INTO kept (value) VALUES ($1)', [value]);
  await client.end();
  process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
  setInterval(() => undefined, 60_000);
  process.on('SIGTERM', () => void server.stop().then(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
