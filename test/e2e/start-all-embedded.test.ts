import assert from 'node:assert/strict';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { isProcessAlive, readPostmasterPid } from '../../libs/database/src/postmaster-pid';
import { connectAgents, unary } from '../support/agents-grpc-client';
import { gatewayHealth, startStack, STACK_READY_WITHIN_MS, type RunningStack } from '../support/start-all';
import { tempDir } from '../support/stack';
import { README_OBJECTIVE, README_PLAN } from '../support/readme-task';
import { eventually } from '../support/eventually';
import { bearerFor } from '../support/tokens';
import { DevKeyStore } from '@s2sp/auth';
import { stackApps } from '../../bench/memory/stack-processes';
import { ALLOCATOR_SETTINGS } from '../../scripts/allocator-settings';

describe('npm start without DATABASE_URL', () => {
  test('without DATABASE_URL runs ONE embedded PostgreSQL for the whole stack, restarts it when it dies, and stops it last', async () => {
    const cwd = tempDir('s2sp-start-embedded-');
    chmodSync(cwd.path, 0o755); // .data/postgres must be reachable by the server's OS user when tests run as root
    const clusterDir = join(cwd.path, '.data', 'postgres');
    try {
      // The apps trust the dev key this test mints its tokens with.
      const stack = await startStack({
        cwd: cwd.path,
        env: { S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir },
        timeoutMs: STACK_READY_WITHIN_MS,
      });
      let serverPid: number | undefined;
      try {
        assert.equal(await gatewayHealth(stack.gatewayUrl), 'ok');
        assert.match(stack.output(), /embedded PostgreSQL in .*\.data\/postgres/);
        await assertReadyAndServing(stack).catch((error: unknown) => {
          // What the stack printed tells why an app that said it was ready did not answer.
          throw new Error(
            `${error instanceof Error ? error.message : String(error)}\n--- npm start printed ---\n${stack.output().slice(-20_000)}`,
          );
        });
        assertAppsRunWithAllocatorSettings(stack);
        const killedPid = readPostmasterPid(clusterDir)?.pid;
        assert.ok(killedPid && isProcessAlive(killedPid), 'the shared server runs');
        assert.equal(await readmeTask(stack.gatewayUrl), 'succeeded');

        // The shared server dies under the running stack: it is started again, and the
        // README task succeeds again without anyone touching the stack.
        process.kill(killedPid, 'SIGKILL');
        await eventually(
          'the embedded server to run again',
          () => /\[postgres\] .*runs again/.test(stack.output()),
          30_000,
        );
        await eventually(
          'the README task to succeed again',
          async () => (await readmeTask(stack.gatewayUrl)) === 'succeeded',
          30_000,
          500,
        );
        assert.equal(await gatewayHealth(stack.gatewayUrl), 'ok');
        serverPid = readPostmasterPid(clusterDir)?.pid;
        assert.ok(serverPid && serverPid !== killedPid && isProcessAlive(serverPid), 'a new server serves the cluster');
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

/** The apps run with the Dockerfile's malloc settings, which give memory back sooner. */
function assertAppsRunWithAllocatorSettings(stack: RunningStack): void {
  const apps = stackApps(stack.pid);
  assert.deepEqual(apps.map((app) => app.name).sort(), ['agents', 'gateway', 'stats-server', 'weather-server']);
  for (const app of apps) {
    const environment = readFileSync(`/proc/${app.pid}/environ`, 'utf8').split('\0');
    for (const [name, value] of Object.entries(ALLOCATOR_SETTINGS))
      assert.ok(environment.includes(`${name}=${value}`), `${app.name} runs with ${name}=${value}`);
  }
}

/** The README's task (weather alerts → filter → chart) through the gateway; resolves with its final status. */
async function readmeTask(gatewayUrl: string): Promise<string> {
  const authorization = await bearerFor({ audience: 'gateway' });
  const call = async (method: string, params: object): Promise<any> => {
    const response = await fetch(`${gatewayUrl}/rpc`, {
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const answer = (await response.json()) as { result?: any; error?: unknown };
    if (!answer.result) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
    return answer.result;
  };
  const { task_id } = await call('agent.submitTask', { objective: README_OBJECTIVE, plan: README_PLAN });
  for (;;) {
    const task = await call('agent.getTask', { task_id });
    if (task.status !== 'accepted' && task.status !== 'running') return task.status as string;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Once it says it is ready, the stack lists each app where it listens, and each of them answers there. */
async function assertReadyAndServing(stack: RunningStack): Promise<void> {
  const ready = stack.output().slice(stack.output().indexOf('S2SP stack ready'));
  const lines = [
    `gateway         JSON-RPC ${stack.gatewayUrl}/rpc  health ${stack.gatewayUrl}/health`,
    `agents          gRPC ${stack.agentsAddress}`,
    `weather-server  MCP ${stack.weatherUrl}/mcp  data plane ${stack.weatherUrl}/s2sp/data`,
    `stats-server    MCP ${stack.statsUrl}/mcp`,
  ];
  for (const line of lines) assert.ok(ready.includes(line), `the ready message lists "${line}":\n${ready}`);

  for (const server of [stack.weatherUrl, stack.statsUrl]) {
    const health = (await (await fetch(`${server}/s2sp/health`)).json()) as { status: string; protocol: string };
    assert.deepEqual([health.status, health.protocol], ['ok', 's2sp'], server);
    assert.equal((await fetch(`${server}/health`)).status, 200, `${server}/health answers while it serves`);
  }
  const agents = connectAgents(stack.agentsAddress);
  try {
    assert.equal((await unary(agents.health, 'Check', { service: '' })).status, 'SERVING');
  } finally {
    agents.close();
  }
}
