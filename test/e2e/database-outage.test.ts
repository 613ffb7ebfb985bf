// The stack's PostgreSQL goes away under running apps (killed, not restarted for a while):
// every entry point answers a retryable "unavailable" meanwhile, never an internal error,
// and everything serves again, with nothing lost, once the server is back.
import assert from 'node:assert/strict';
import { chmodSync } from 'node:fs';
import { describe, test } from 'node:test';
import { Client } from 'pg';
import { DevKeyStore } from '@s2sp/auth';
import { startEmbeddedPostgres } from '../../libs/database/src/embedded-postgres-server';
import type { EmbeddedPostgresEvent } from '../../libs/database/src/embedded-postgres-supervisor';
import { readPostmasterPid } from '../../libs/database/src/postmaster-pid';
import { hashResourceToken } from '../../libs/s2sp/src/protocol/resource-token';
import { DEFAULT_RESOURCE_RESERVATIONS } from '../../libs/s2sp/src/store/prisma-resource-store';
import { eventually } from '../support/eventually';
import { connectMcp, jsonOf, textOf } from '../support/mcp-client';
import { README_OBJECTIVE, README_PLAN } from '../support/readme-task';
import { gatewayHealth, startStack, STACK_READY_WITHIN_MS } from '../support/start-all';
import { fetchResource, tempDir } from '../support/stack';
import { bearerFor } from '../support/tokens';

/** How long the server stays down: every call below is made inside this window. */
const OUTAGE_MS = 10_000;
/** The resource rows a resource server reserves ahead (DEFAULT_RESOURCE_RESERVATIONS): at most that many answers without the database. */
const MAX_RESERVED_ROWS = DEFAULT_RESOURCE_RESERVATIONS;

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows as Array<Record<string, unknown>>;
  } finally {
    await client.end();
  }
}

/** An MCP server's GET /health: its status and its database's. */
async function serverHealth(url: string): Promise<[string, string | undefined]> {
  const health = (await (await fetch(`${url}/health`)).json()) as { status: string; database?: { status: string } };
  return [health.status, health.database?.status];
}

async function rpc(gatewayUrl: string, method: string, params: object): Promise<{ result?: any; error?: any }> {
  const response = await fetch(`${gatewayUrl}/rpc`, {
    method: 'POST',
    headers: { authorization: await bearerFor({ audience: 'gateway' }), 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return (await response.json()) as { result?: any; error?: any };
}

/** Submits the README's task and waits for its end; resolves with the task as agent.getTask answers it. */
async function runReadmeTask(gatewayUrl: string): Promise<{ task_id: string; status: string; steps: unknown[] }> {
  const submitted = await rpc(gatewayUrl, 'agent.submitTask', { objective: README_OBJECTIVE, plan: README_PLAN });
  const taskId = submitted.result?.task_id as string | undefined;
  if (!taskId) throw new Error(`not submitted: ${JSON.stringify(submitted.error)}`);
  return eventually('the task to end', async () => {
    const task = (await rpc(gatewayUrl, 'agent.getTask', { task_id: taskId })).result;
    return task === undefined || task.status === 'accepted' || task.status === 'running' ? undefined : task;
  });
}

describe('a database outage under the running stack', () => {
  test('while PostgreSQL is down every entry point answers a retryable "unavailable"; afterwards all serves again and nothing is lost', async () => {
    const data = tempDir('s2sp-outage-db-');
    chmodSync(data.path, 0o755); // reachable by the server's OS user when tests run as root
    const cwd = tempDir('s2sp-outage-stack-');
    const events: EmbeddedPostgresEvent[] = [];
    const database = await startEmbeddedPostgres({
      dataDir: data.path,
      restart: { maxAttempts: 3, initialDelayMs: OUTAGE_MS },
      onEvent: (event) => events.push(event),
      onGiveUp: () => undefined,
    });
    try {
      const stack = await startStack({
        cwd: cwd.path,
        env: { DATABASE_URL: database.url, S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir },
        timeoutMs: STACK_READY_WITHIN_MS,
      });
      try {
        const weather = await connectMcp(stack.weatherUrl, 'outage-test', { scopes: ['weather:read'] });
        const stats = await connectMcp(stack.statsUrl, 'outage-test', {
          audience: 'stats-server',
          scopes: ['stats:chart', 's2sp:data:read', 'weather:read'],
        });
        const taskBefore = await runReadmeTask(stack.gatewayUrl);
        assert.equal(taskBefore.status, 'succeeded');
        const issued = jsonOf(
          await weather.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
        );
        const dataPlaneAuth = { scopes: ['s2sp:data:read', 'weather:read'] };
        const [{ audited }] = await query(database.url, 'SELECT count(*)::int AS audited FROM s2sp_audit_event');
        // The resource written (its row was reserved ahead; its metadata and table follow the answer),
        // and PostgreSQL's log holding it on disk, so that it survives the kill: an answer does not wait
        // for either (see resourceWriteMode and resourceReservations in the README).
        const issuedHash = hashResourceToken(String(issued.resource_url).split('/').pop()!);
        const [{ written }] = await query(database.url, 'SELECT pg_current_wal_insert_lsn()::text AS written');
        await eventually('the issued resource to be written and its log to reach the disk', async () => {
          const [row] = await query(
            database.url,
            `SELECT pg_current_wal_flush_lsn() >= '${String(written)}'::pg_lsn AND
                    (SELECT bool_and(table_length IS NOT NULL) FROM s2sp_resource WHERE NOT reserved) AND
                    EXISTS (SELECT 1 FROM s2sp_resource
                            WHERE token_hash = '${issuedHash}' AND NOT reserved AND table_length IS NOT NULL) AS kept`,
          );
          return row?.kept === true;
        });

        process.kill(readPostmasterPid(database.clusterDir)?.pid as number, 'SIGKILL');
        await eventually('the server to be gone', () => events.some((event) => event.type === 'exited'));

        // JSON-RPC at the gateway: -32001 with a retry time and hint.
        const submitted = await rpc(stack.gatewayUrl, 'agent.submitTask', {
          objective: README_OBJECTIVE,
          plan: README_PLAN,
        });
        assert.equal(submitted.error?.code, -32001, JSON.stringify(submitted));
        assert.ok(submitted.error.data.retry_after >= 1, JSON.stringify(submitted.error));
        assert.equal(submitted.error.data.recovery_hint, 'RETRY_AFTER');

        // A resource tool keeps answering on the rows it reserved before the outage (their metadata and
        // tables wait in memory for the database: resourceReservations in the README), then answers an
        // MCP tool error the caller may retry.
        const issuedDuringOutage: string[] = [];
        let refusedIssue: Awaited<ReturnType<typeof weather.callTool>> | undefined;
        for (let call = 0; call <= MAX_RESERVED_ROWS && refusedIssue === undefined; call++) {
          const answer = await weather.callTool({
            name: 'get_alerts',
            arguments: { area: 'CA', abstract_domains: 'event' },
          });
          if (answer.isError) refusedIssue = answer;
          else issuedDuringOutage.push(String(jsonOf(answer).resource_url));
        }
        assert.ok(refusedIssue, `still issuing after ${issuedDuringOutage.length} calls`);
        assert.deepEqual(refusedIssue._meta, { 's2sp/error_code': 'UNAVAILABLE' });
        assert.match(textOf(refusedIssue), /database is unavailable right now/);

        // The data plane: 503, Retry-After, STORE_UNAVAILABLE.
        const refusedFetch = await fetch(String(issued.resource_url), {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: await bearerFor({ audience: 'weather-server', ...dataPlaneAuth }),
          },
          body: '{}',
        });
        assert.equal(refusedFetch.status, 503);
        assert.equal(refusedFetch.headers.get('retry-after'), '1');
        assert.equal(((await refusedFetch.json()) as { error: { code: string } }).error.code, 'STORE_UNAVAILABLE');

        // A consumer tool whose fetch meets that 503: an MCP tool error saying to call again.
        const refusedChart = await stats.callTool({
          name: 'draw_chart',
          arguments: {
            abstract_data: JSON.stringify(issued.abstract),
            resource_url: issued.resource_url,
            group_by: 'event',
          },
        });
        assert.equal(refusedChart.isError, true, textOf(refusedChart));
        assert.equal((refusedChart._meta as Record<string, unknown>)['s2sp/error_code'], 'UNAVAILABLE');
        assert.match(textOf(refusedChart), /call this tool again with the same resource_url/);

        assert.equal(await gatewayHealth(stack.gatewayUrl), 'degraded', 'the gateway reports the outage');
        assert.deepEqual(
          await serverHealth(stack.weatherUrl),
          ['degraded', 'unavailable'],
          'so does the weather server',
        );
        assert.ok(
          !events.some((event) => event.type === 'restarted'),
          'every call above was made while the server was down',
        );

        // The server returns: the resource refused during the outage was not used up, and the README task runs.
        await eventually('the server to run again', () => events.some((event) => event.type === 'restarted'), 60_000);
        const fetched = await eventually(
          'the resource issued before the outage to be served',
          async () => {
            const answer = await fetchResource(String(issued.resource_url), {}, dataPlaneAuth);
            return answer.status === 200 ? answer : undefined;
          },
          30_000,
          250,
        );
        assert.equal(fetched.json.body.length, issued.total_rows);
        for (const resourceUrl of issuedDuringOutage.slice(0, 3)) {
          const answer = await eventually(
            'a resource issued during the outage to be served once its write went through',
            async () => {
              const response = await fetchResource(resourceUrl, {}, dataPlaneAuth);
              return response.status === 200 ? response : undefined;
            },
            30_000,
            250,
          );
          assert.ok(answer.json.body.length > 0);
        }
        await eventually(
          'the README task to succeed',
          async () => (await runReadmeTask(stack.gatewayUrl).catch(() => undefined))?.status === 'succeeded',
          30_000,
          500,
        );
        // What was committed before the outage is all there.
        const kept = (await rpc(stack.gatewayUrl, 'agent.getTask', { task_id: taskBefore.task_id })).result;
        assert.deepEqual([kept?.status, kept?.steps?.length], ['succeeded', taskBefore.steps.length]);
        const [{ audited: auditedAfter }] = await query(
          database.url,
          'SELECT count(*)::int AS audited FROM s2sp_audit_event',
        );
        assert.ok(Number(auditedAfter) >= Number(audited), `audit rows: ${audited} before, ${auditedAfter} after`);
        assert.equal(await gatewayHealth(stack.gatewayUrl), 'ok');
        assert.deepEqual(await serverHealth(stack.weatherUrl), ['ok', 'ok']);
        await Promise.all([weather.close(), stats.close()]);
      } finally {
        assert.equal(await stack.stop(), 0, stack.output().slice(-5_000));
      }
    } finally {
      await database.stop();
      cwd.remove();
      data.remove();
    }
  });
});
