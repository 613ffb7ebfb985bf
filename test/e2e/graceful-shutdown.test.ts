// SIGTERM on real processes of the apps: each reports not-ready, lets the call
// in flight finish, flushes its audit and exits 0; a task the grace period
// cuts off is stored FAILED, so whoever asks next sees why.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Module } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import { McpController, Tool } from '@rekog/mcp-nest';
import { serveMcp, type RunningMcpServer } from '@s2sp/core';
import { z } from 'zod';
import { connectAgents, unary, type AgentsClients } from '../support/agents-grpc-client';
import { eventually } from '../support/agents-stack';
import { consumerStep, FINAL_TASK_STATUSES, getTask, resourceStep, submitTask } from '../support/agent-tasks';
import { healthOnNewConnection as health, spawnApp, waitForNotReady, type AppProcess } from '../support/app-process';
import {
  openPostgresTestDatabase,
  postgresSkipReason,
  postgresTestUrl,
  type PostgresTestDatabase,
} from '../support/databases';
import { freePort } from '../support/free-port';
import { startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';

/** Generous bounds for a loaded 2-core machine: how long a stuck wait may take, not timing claims. */
const APP_READY_WITHIN_MS = 90_000;
/** Long enough that a test sees the not-ready answer before the app stops accepting. */
const NOT_READY_DELAY_MS = '3000';

/** Calls of the `hold` tools wait here until the test releases them. */
class Gate {
  private opened!: () => void;
  private released!: () => void;
  readonly started = new Promise<void>((resolve) => (this.opened = resolve));
  readonly releasedPromise = new Promise<void>((resolve) => (this.released = resolve));
  enter(): Promise<void> {
    this.opened();
    return this.releasedPromise;
  }
  release(): void {
    this.released();
  }
}

let gate = new Gate();

@McpController()
class HoldToolsController {
  @Tool({
    name: 'hold',
    description: 'Answers once the test lets it.',
    parameters: z.object({}),
    annotations: { readOnlyHint: true },
  })
  async hold() {
    await gate.enter();
    return { content: [{ type: 'text', text: 'released' }] };
  }

  @Tool({
    name: 'hold_consumer',
    description: 'An S2SP consumer (by its parameters) that answers once the test lets it.',
    parameters: z.object({
      abstract_data: z.string(),
      resource_url: z.string().optional(),
      body_data: z.string().optional(),
      column_mapping: z.string().optional(),
    }),
    annotations: { readOnlyHint: true },
  })
  async holdConsumer(@Payload() args: { abstract_data: string }) {
    await gate.enter();
    return {
      content: [{ type: 'text', text: `consumed ${(JSON.parse(args.abstract_data) as unknown[]).length} rows` }],
    };
  }
}

@Module({ controllers: [HoldToolsController] })
class HoldToolsModule {}

function postJson(url: string, body: unknown, authorization: string): Promise<{ status: number; json: any }> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization },
    body: JSON.stringify(body),
  }).then(async (response) => ({
    status: response.status,
    json: await response.json(),
  }));
}

/** Resolves once the task's consumer step is held by the gate; fails if the task ends first. */
async function heldOrEnded(client: AgentsClients, taskId: string): Promise<void> {
  let held = false;
  void gate.started.then(() => (held = true));
  await eventually(`task ${taskId} to reach the held step`, async () => {
    if (held) return true;
    const task = await getTask(client.agents, taskId);
    if (FINAL_TASK_STATUSES.includes(task.status))
      assert.fail(`task ended ${task.status} before its step was held: ${JSON.stringify(task.error ?? task.steps)}`);
    return held;
  });
}

describe('graceful shutdown on SIGTERM (separate processes, PostgreSQL)', () => {
  let database: PostgresTestDatabase | null = null;
  let databaseUrl = '';
  let weather: RunningMcpServer | undefined;
  let holdServer: RunningMcpServer | undefined;
  const processes: AppProcess[] = [];
  const clients: AgentsClients[] = [];

  before(async () => {
    database = await openPostgresTestDatabase();
    if (!database) return;
    const url = new URL(postgresTestUrl());
    url.searchParams.set('schema', database.schema);
    databaseUrl = url.toString();
    weather = await startWeather();
    holdServer = await serveMcp(HoldToolsModule, {
      name: 'hold',
      version: '1.0.0',
      host: '127.0.0.1',
      port: 0,
      transport: 'http',
      logger: false,
    });
  });

  after(async () => {
    gate.release();
    for (const client of clients) client.close();
    await Promise.all(processes.map((app) => app.kill()));
    await holdServer?.close();
    await weather?.close();
    await database?.close();
  });

  async function startAgentsProcess(
    shutdownEnv: Record<string, string>,
  ): Promise<{ app: AppProcess; address: string; client: AgentsClients }> {
    const port = await freePort();
    const app = spawnApp('apps/agents/src/main.js', {
      AGENTS_HOST: '127.0.0.1',
      AGENTS_PORT: String(port),
      AGENTS_METRICS_PORT: '0',
      AGENTS_MCP_SERVERS: `weather=${weather!.url}/mcp,hold=${holdServer!.url}/mcp`,
      DATABASE_URL: databaseUrl,
      LOG_LEVELS: 'log,error,warn',
      ...shutdownEnv,
    });
    processes.push(app);
    await app.waitForOutput('gRPC (s2sp.v1.ToolService', APP_READY_WITHIN_MS);
    const client = connectAgents(`127.0.0.1:${port}`);
    clients.push(client);
    return { app, address: `127.0.0.1:${port}`, client };
  }

  async function gatewayAuditRows(): Promise<number> {
    return database!.client.auditEvent.count({ where: { protocol: 'json-rpc' } });
  }

  /** Started by the gateway's test (its downstream), shut down by the next one. */
  let sharedAgents: { app: AppProcess; address: string; client: AgentsClients } | undefined;
  const startSharedAgents = async () =>
    (sharedAgents ??= await startAgentsProcess({
      S2SP_SHUTDOWN_GRACE_MS: '60000',
      S2SP_SHUTDOWN_NOT_READY_DELAY_MS: NOT_READY_DELAY_MS,
    }));

  test('gateway: /health answers 503, the call in flight completes, its audit decisions are stored, exit code 0', async (t) => {
    if (!database) {
      t.skip(await postgresSkipReason());
      return;
    }
    const agents = await startSharedAgents();
    const port = await freePort();
    const gateway = spawnApp('apps/gateway/src/main.js', {
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: String(port),
      GATEWAY_AGENTS_URL: agents.address,
      DATABASE_URL: databaseUrl,
      LOG_LEVELS: 'log,error,warn',
      // Decisions stay in the batch until the shutdown flushes them.
      S2SP_AUTH_AUDIT_FLUSH_INTERVAL_MS: '60000',
      S2SP_SHUTDOWN_GRACE_MS: '60000',
      S2SP_SHUTDOWN_NOT_READY_DELAY_MS: NOT_READY_DELAY_MS,
    });
    processes.push(gateway);
    const gatewayUrl = `http://127.0.0.1:${port}`;
    await gateway.waitForOutput('JSON-RPC at', APP_READY_WITHIN_MS);
    await eventually(
      'the gateway to be healthy',
      async () => (await health(gatewayUrl)).json.status === 'ok',
      APP_READY_WITHIN_MS,
    );

    gate = new Gate();
    const call = postJson(
      `${gatewayUrl}/rpc`,
      { jsonrpc: '2.0', id: 1, method: 'tools.call', params: { name: 'hold', server: 'hold' } },
      await bearerFor({ audience: 'gateway' }),
    );
    await Promise.race([
      gate.started,
      call.then((answer) =>
        assert.fail(`tools.call answered before the tool was held: ${JSON.stringify(answer.json)}`),
      ),
    ]);
    assert.equal(await gatewayAuditRows(), 0, 'the decision of the call is still in the batch');

    gateway.signal('SIGTERM');
    const notReady = await waitForNotReady(gatewayUrl);
    assert.deepEqual(notReady.json, { status: 'shutting_down' });

    gate.release();
    const answered = await call;
    assert.equal(answered.status, 200);
    assert.equal(answered.json.error, undefined, JSON.stringify(answered.json));
    assert.match(JSON.stringify(answered.json.result), /released/);

    assert.equal(await gateway.exited, 0, gateway.output());
    assert.match(gateway.output(), /in-flight work finished; closing/);
    assert.ok((await gatewayAuditRows()) > 0, 'the shutdown flushed the audit batch');
    await assert.rejects(health(gatewayUrl), /ECONNREFUSED/, 'nothing listens any more');
  });

  test('agents: gRPC health answers NOT_SERVING, a running task finishes within the grace period and is stored SUCCEEDED, exit code 0', async (t) => {
    if (!database) {
      t.skip(await postgresSkipReason());
      return;
    }
    const agents = await startSharedAgents();
    gate = new Gate();
    const task = await submitTask(agents.client.agents, {
      plan: [
        resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }),
        consumerStep('sink', 'alerts', { tool: 'hold_consumer', server: 'hold' }),
      ],
    });
    await heldOrEnded(agents.client, task.task_id);
    assert.equal((await unary(agents.client.health, 'Check', { service: '' })).status, 'SERVING');

    agents.app.signal('SIGTERM');
    await eventually(
      'gRPC health to answer NOT_SERVING',
      async () => (await unary(agents.client.health, 'Check', { service: '' })).status === 'NOT_SERVING',
    );
    gate.release();

    assert.equal(await agents.app.exited, 0, agents.app.output());
    const stored = await database.client.agentTask.findUniqueOrThrow({ where: { id: task.task_id } });
    assert.equal(stored.status, 'SUCCEEDED');
  });

  test('agents: a task still running when the grace period ends is stored FAILED with a resubmit hint, exit code 0', async (t) => {
    if (!database) {
      t.skip(await postgresSkipReason());
      return;
    }
    const agents = await startAgentsProcess({ S2SP_SHUTDOWN_GRACE_MS: '500', S2SP_SHUTDOWN_NOT_READY_DELAY_MS: '0' });
    gate = new Gate();
    const task = await submitTask(agents.client.agents, {
      plan: [
        resourceStep('alerts', { mode: 'DATA_PLANE_MODE_SYNC' }),
        consumerStep('sink', 'alerts', { tool: 'hold_consumer', server: 'hold' }),
      ],
    });
    await heldOrEnded(agents.client, task.task_id);

    agents.app.signal('SIGTERM');
    assert.equal(await agents.app.exited, 0, agents.app.output());
    assert.match(agents.app.output(), /grace period over, cutting off: .*running tasks/);
    const stored = await database.client.agentTask.findUniqueOrThrow({ where: { id: task.task_id } });
    assert.equal(stored.status, 'FAILED');
    assert.match(JSON.stringify(stored.error), /interrupted by agents shutdown/);
    assert.match(JSON.stringify(stored.error), /RESUBMIT_TASK/);
    gate.release();
  });
});
