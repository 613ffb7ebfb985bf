import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, test } from 'node:test';
import { postgresOrSkip, postgresTestUrl, withAdminClient } from '../support/databases';
import { gatewayHealth, startStack, STACK_READY_WITHIN_MS } from '../support/start-all';
import { tempDir } from '../support/stack';

describe('npm start on PostgreSQL', () => {
  // Issue 18, point 11: the four apps migrating one empty database at once used to
  // leave the migration's advisory lock held, and the next migrator timed out.
  test('starts all four apps at once on an EMPTY PostgreSQL database (DATABASE_URL) and is healthy', async (t) => {
    if (!(await postgresOrSkip(t))) return;
    const database = `s2sp_start_${randomBytes(5).toString('hex')}`;
    await withAdminClient((client) => client.query(`CREATE DATABASE "${database}"`));
    const url = new URL(postgresTestUrl());
    url.pathname = `/${database}`;
    const cwd = tempDir('s2sp-start-pg-');
    try {
      const stack = await startStack({
        cwd: cwd.path,
        env: { DATABASE_URL: url.toString() },
        timeoutMs: STACK_READY_WITHIN_MS,
      });
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
});
