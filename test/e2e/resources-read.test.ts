import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ResourceActivityRow } from '../../libs/s2sp/src/activity/resource-activity-summary';
import { eventually } from '../support/agents-stack';
import { startPlatformStack, type PlatformStack } from '../support/platform-stack';
import { README_OBJECTIVE, README_PLAN } from '../support/readme-task';
import { ALL_TEST_SCOPES, bearerFor } from '../support/tokens';

const ACTIVITY_URI = 's2sp://data-plane/activity';

/** resources.read, every hop real: gateway → s2sp.v2 ReadResource at the agents → resources/read on the MCP server. */
describe('resources.read end to end', () => {
  let stack: PlatformStack;

  before(async () => {
    stack = await startPlatformStack();
  });

  after(async () => {
    await stack?.close();
  });

  async function rpc(
    method: string,
    params: unknown,
    scopes: readonly string[] = ALL_TEST_SCOPES,
    subject = 'reader',
  ): Promise<any> {
    const response = await fetch(`${stack.gateway.url}/rpc`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: await bearerFor({ audience: 'gateway', subject, scopes }),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    return response.json();
  }

  test("after the README task, the weather server's activity shows the caller's get_alerts resource consumed, with the bytes the stats server fetched", async () => {
    const submitted = await rpc('agent.submitTask', { objective: README_OBJECTIVE, plan: README_PLAN });
    assert.ok(submitted.result, JSON.stringify(submitted));
    const taskId = submitted.result.task_id;
    await eventually(
      'the task succeeded',
      async () => (await rpc('agent.getTask', { task_id: taskId })).result?.status === 'succeeded',
    );

    const answer = await rpc('resources.read', { server: 'weather', uri: ACTIVITY_URI });
    assert.ok(answer.result, JSON.stringify(answer));
    assert.equal(answer.result.server, 'weather');
    assert.equal(answer.result.uri, ACTIVITY_URI);
    assert.equal(answer.result.error, undefined);
    assert.equal(answer.result.contents.length, 1);
    const [content] = answer.result.contents;
    assert.deepEqual(
      { uri: content.uri, mimeType: content.mimeType },
      { uri: ACTIVITY_URI, mimeType: 'application/json' },
    );
    const rows: ResourceActivityRow[] = JSON.parse(content.text).rows;
    const row = rows.find((candidate) => candidate.toolName === 'get_alerts' && candidate.caller === 'reader');
    assert.ok(row, JSON.stringify(rows));
    assert.deepEqual(
      { issued: row.issued, consumed: row.consumed, fetches: row.fetches },
      { issued: 1, consumed: 1, fetches: 1 },
    );
    assert.ok(row.bytes > 0, `bytes: ${row.bytes}`);
  });

  test("a token without s2sp:activity:read is refused by the weather server: 4002 with the server's message and the scope it lacks", async () => {
    const answer = await rpc(
      'resources.read',
      { server: 'weather', uri: ACTIVITY_URI },
      ALL_TEST_SCOPES.filter((scope) => scope !== 's2sp:activity:read'),
    );
    assert.equal(answer.error?.code, 4002, JSON.stringify(answer));
    assert.match(
      answer.error.data.reason,
      /MCP server "weather" refused the request: .*Missing required scope: s2sp:activity:read/,
    );
    assert.deepEqual(answer.error.data.missing_scopes, ['s2sp:activity:read']);
  });

  test('a token without resources:read is refused by the gateway, naming the scope', async () => {
    const answer = await rpc('resources.read', { server: 'weather', uri: ACTIVITY_URI }, [
      's2sp:activity:read',
      'weather:read',
    ]);
    assert.equal(answer.error?.code, 4002, JSON.stringify(answer));
    assert.deepEqual(answer.error.data.missing_scopes, ['resources:read']);
  });

  test('an unknown server is -32602 naming the servers there are; a server without resources answers with an error in the result', async () => {
    const unknown = await rpc('resources.read', { server: 'nowhere', uri: ACTIVITY_URI });
    assert.equal(unknown.error?.code, -32602, JSON.stringify(unknown));
    assert.equal(
      unknown.error.data.reason,
      'server: no MCP server "nowhere" is configured (known: weather, stats, testkit)',
    );

    // The stats server offers no resources: any URI is unknown there.
    const stats = await rpc('resources.read', { server: 'stats', uri: ACTIVITY_URI });
    assert.deepEqual(stats.result?.contents, [], JSON.stringify(stats));
    assert.equal(stats.result.error.code, -32602);
  });

  test('params are validated at the gateway: server and uri required, bounded, no control characters', async () => {
    for (const params of [
      { uri: ACTIVITY_URI },
      { server: 'weather' },
      { server: 'weather', uri: 'a\u0000b' },
      { server: 'weather', uri: 'x'.repeat(2049) },
      { server: 'weather', uri: ACTIVITY_URI, extra: 1 },
    ]) {
      const answer = await rpc('resources.read', params);
      assert.equal(answer.error?.code, -32602, JSON.stringify(params));
    }
  });
});
