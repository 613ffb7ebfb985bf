import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isProcessAlive, readPostmasterPid } from '../../libs/database/src/postmaster-pid';
import { gatewayHealth, startStack, STACK_READY_WITHIN_MS } from '../support/start-all';
import { tempDir } from '../support/stack';

describe('npm start without DATABASE_URL', () => {
  test('without DATABASE_URL runs ONE embedded PostgreSQL for the whole stack and stops it last', async () => {
    const cwd = tempDir('s2sp-start-embedded-');
    chmodSync(cwd.path, 0o755); // .data/postgres must be reachable by the server's OS user when tests run as root
    const clusterDir = join(cwd.path, '.data', 'postgres');
    try {
      const stack = await startStack({ cwd: cwd.path, timeoutMs: STACK_READY_WITHIN_MS });
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
