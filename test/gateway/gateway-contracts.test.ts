// The contract version and the schema registry at the gateway: rpc.discover,
// GET /health and GET /schemas, read as an anonymous client would.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { CONTRACT_VERSION, PROTO_FILE_PATHS } from '@s2sp/contracts';
import { useGatewayWithFakeAgents } from '../support/gateway-harness';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

interface Entry {
  id: string;
  kind: string;
  version: string;
  describes: string;
  contentType: string;
  sha256: string;
  bytes: number;
  href: string;
}

describe('gateway: contract version and schema registry', () => {
  const suite = useGatewayWithFakeAgents();
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${suite.gw.gateway.url}${path}`, { headers });
  const listSchemas = async (): Promise<{ contractVersion: string; schemas: Entry[] }> => {
    const response = await get('/schemas');
    assert.equal(response.status, 200);
    return (await response.json()) as { contractVersion: string; schemas: Entry[] };
  };

  test('rpc.discover states the contract version, without a token', async () => {
    const { status, json } = await suite.gw.post({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' }, { authorization: '' });
    assert.equal(status, 200);
    assert.equal(json.result.info.version, CONTRACT_VERSION);
  });

  test('GET /health states the contract version', async () => {
    const { json } = await suite.gw.health();
    assert.equal(json.gateway.contractVersion, CONTRACT_VERSION);
  });

  test('GET /schemas lists the protos, the OpenRPC document and the methods schemas, anonymously', async () => {
    const list = await listSchemas();
    assert.equal(list.contractVersion, CONTRACT_VERSION);
    const ids = list.schemas.map((entry) => entry.id);
    for (const id of ['proto.s2sp.v1.common', 'proto.s2sp.v1.tool', 'proto.s2sp.v1.agent', 'proto.s2sp.v1.contract', 'openrpc']) {
      assert.ok(ids.includes(id), `${id} missing from ${ids.join(', ')}`);
    }
    for (const method of ['tools.list', 'tools.call', 'agent.submitTask', 'agent.getTask', 'agent.cancelTask']) {
      assert.ok(ids.includes(`jsonrpc.${method}.params`), `no params schema of ${method}`);
      assert.ok(ids.includes(`jsonrpc.${method}.result`), `no result schema of ${method}`);
    }
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    for (const entry of list.schemas) {
      assert.equal(entry.version, CONTRACT_VERSION, entry.id);
      assert.match(entry.sha256, /^[0-9a-f]{64}$/, entry.id);
      assert.equal(entry.href, `/schemas/${entry.id}`);
    }
    assert.equal(suite.fake.calls.length, 0, 'the registry does not ask the agents');
  });

  test('each document is served as its content type, and its hash is the SHA-256 of the bytes served', async () => {
    for (const entry of (await listSchemas()).schemas) {
      const response = await get(entry.href);
      assert.equal(response.status, 200, entry.id);
      assert.equal(response.headers.get('content-type'), entry.contentType, entry.id);
      const body = new Uint8Array(await response.arrayBuffer());
      assert.equal(body.length, entry.bytes, entry.id);
      assert.equal(sha256(body), entry.sha256, entry.id);
      if (entry.kind !== 'proto') JSON.parse(Buffer.from(body).toString('utf8'));
    }
  });

  test('a proto document is the .proto file as written', async () => {
    const toolProto = PROTO_FILE_PATHS.find((path) => path.endsWith('tool.proto'))!;
    const response = await get('/schemas/proto.s2sp.v1.tool');
    assert.equal(await response.text(), readFileSync(toolProto, 'utf8'));
  });

  test('the OpenRPC document is what rpc.discover returns; a method schema is self-contained', async () => {
    const served = await (await get('/schemas/openrpc')).json();
    const { json } = await suite.gw.post({ jsonrpc: '2.0', id: 1, method: 'rpc.discover' });
    assert.deepEqual(served, json.result);

    const params = (await (await get('/schemas/jsonrpc.agent.submitTask.params')).json()) as Record<string, any>;
    assert.equal(params.type, 'object');
    assert.equal(params.additionalProperties, false);
    const refs = JSON.stringify(params).match(/"\$ref":"[^"]*"/g) ?? [];
    assert.ok(refs.length > 0, 'submitTask params refer to nested DTO schemas');
    for (const ref of refs) {
      const name = /"#\/definitions\/([^"]+)"/.exec(ref)?.[1];
      assert.ok(name && params.definitions?.[name], `${ref} resolves inside the document`);
    }
  });

  test('an unknown or malformed id is a 404 with a JSON error, never a stack trace', async () => {
    for (const id of ['no-such-schema', '..%2F..%2Fetc%2Fpasswd', `${'x'.repeat(90)}!`, 'a%20b', '%00']) {
      const response = await get(`/schemas/${id}`);
      assert.equal(response.status, 404, id);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { error?: { code?: string; message?: string } };
      assert.equal(body.error?.code, 'SCHEMA_NOT_FOUND', id);
      assert.doesNotMatch(JSON.stringify(body), /\bat .*\.js:\d+/, 'no stack');
    }
    const unknown = (await (await get('/schemas/no-such-schema')).json()) as { error: { message: string } };
    assert.match(unknown.error.message, /no-such-schema/);
  });
});
