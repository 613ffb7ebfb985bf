import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { Client } from 'pg';
import { isProcessAlive, readPostmasterPid } from '../../libs/s2sp/src/persistence/postmaster-pid';
import { postgresAvailability, postgresRequired, postgresSkipReason, postgresTestUrl } from '../support/databases';
import { startStack } from '../support/start-all';
import { tempDir } from '../support/stack';

const READY_WITHIN_MS = 150_000;

async function gatewayHealth(gatewayUrl: string): Promise<string | undefined> {
  const response = await fetch(`${gatewayUrl}/health`);
  return ((await response.json()) as { status?: string }).status;
}

async function withAdminClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: postgresTestUrl() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

describe('npm start', () => {
  // Issue 18, point 11: the four apps migrating one empty database at once used to
  // leave the migration's advisory lock held, and the next migrator timed out.
  test('starts all four apps at once on an EMPTY PostgreSQL database (DATABASE_URL) and is healthy', async (t) => {
    const status = await postgresAvailability();
    if (!status.available) {
      if (postgresRequired()) throw new Error(`S2SP_REQUIRE_POSTGRES=1 but ${status.reason}`);
      return t.skip(await postgresSkipReason());
    }
    const database = `s2sp_start_${randomBytes(5).toString('hex')}`;
    await withAdminClient((client) => client.query(`CREATE DATABASE "${database}"`));
    const url = new URL(postgresTestUrl());
    url.pathname = `/${database}`;
    const cwd = tempDir('s2sp-start-pg-');
    try {
      const stack = await startStack({ cwd: cwd.path, env: { DATABASE_URL: url.toString() }, timeoutMs: READY_WITHIN_MS });
      try {
        assert.equal(await gatewayHealth(stack.gatewayUrl), 'ok');
        assert.doesNotMatch(stack.output(), /advisory lock/i);
        assert.doesNotMatch(stack.output(), /embedded PostgreSQL/, 'DATABASE_URL is used, no embedded server');
      } finally {
        assert.equal(await stack.stop(), 0);
      }
    } finally {
      cwd.remove();
      await withAdminClient((client) => client.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`));
    }
  });

  test('without DATABASE_URL runs ONE embedded PostgreSQL for the whole stack and stops it last', async () => {
    const cwd = tempDir('s2sp-start-embedded-');
    chmodSync(cwd.path, 0o755); // .data/postgres must be reachable by the server's OS user when tests run as root
    const clusterDir = join(cwd.path, '.data', 'postgres');
    try {
      const stack = await startStack({ cwd: cwd.path, timeoutMs: READY_WITHIN_MS });
      let serverPid: number | undefined;
      try {
        assert.equal(await gatewayHealth(stack.gatewayUrl), 'ok');
        assert.match(stack.output(), /embedded PostgreSQL in .*\.data\/postgres/);
        serverPid = readPostmasterPid(clusterDir)?.pid;
        assert.ok(serverPid && isProcessAlive(serverPid), 'the shared server runs');
      } finally {
        assert.equal(await stack.stop(), 0);
      }
      assert.equal(isProcessAlive(serverPid), false, 'the server stopped with the stack');
      assert.equal(readPostmasterPid(clusterDir), null, 'cleanly: no lock file left');
    } finally {
      cwd.remove();
    }
  });
});
