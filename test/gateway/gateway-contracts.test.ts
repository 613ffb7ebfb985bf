// The contract version and the schema registry at the gateway: rpc.discover,
// GET /health and GET /schemas, read as an anonymous client would, and the MCP
// tools' schemas GET /schemas adds for a caller holding tools:list.
import assert from 'node:assert/strict';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, test } from 'node:test';
import { DevKeyStore, TokenMinter } from '@s2sp/auth';
import { CONTRACT_VERSION, PACKAGE_CONTRACT_VERSIONS, v1 } from '@s2sp/contracts';
import { PROTO_FILE_PATHS } from '../../libs/contracts/src/proto-path';
import { WEATHER_TOOL_INPUT_SCHEMA, WEATHER_TOOL_OUTPUT_SCHEMA } from '../support/fake-agents';
import { useGatewayWithFakeAgents } from '../support/gateway-harness';
import { toolSchemaDocuments } from '../../libs/gateway/src/schemas/mcp-tool-schemas.service';
import { schemaDocuments } from '../../libs/gateway/src/schemas/schema-registry.service';
import { bearerFor, TEST_SUBJECT } from '../support/tokens';

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
  const get = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${suite.gw.gateway.url}${path}`, { headers });
  const listSchemas = async (
    headers: Record<string, string> = {},
  ): Promise<{ contractVersion: string; schemas: Entry[] }> => {
    const response = await get('/schemas', headers);
    assert.equal(response.status, 200);
    return (await response.json()) as { contractVersion: string; schemas: Entry[] };
  };

  test('rpc.discover states the contract version, without a token', async () => {
    const { status, json } = await suite.gw.post(
      { jsonrpc: '2.0', id: 1, method: 'rpc.discover' },
      { authorization: '' },
    );
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
    for (const id of [
      'proto.s2sp.v1.common',
      'proto.s2sp.v1.tool',
      'proto.s2sp.v1.agent',
      'proto.s2sp.v1.contract',
      'openrpc',
    ]) {
      assert.ok(ids.includes(id), `${id} missing from ${ids.join(', ')}`);
    }
    for (const method of ['tools.list', 'tools.call', 'agent.submitTask', 'agent.getTask', 'agent.cancelTask']) {
      assert.ok(ids.includes(`jsonrpc.${method}.params`), `no params schema of ${method}`);
      assert.ok(ids.includes(`jsonrpc.${method}.result`), `no result schema of ${method}`);
    }
    assert.equal(new Set(ids).size, ids.length, 'ids are unique');
    for (const entry of list.schemas) {
      const expected = entry.id.startsWith('proto.s2sp.v1.') ? PACKAGE_CONTRACT_VERSIONS['s2sp.v1'] : CONTRACT_VERSION;
      assert.equal(entry.version, expected, entry.id);
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

  describe("the MCP tools' schemas", () => {
    const TOOL_IDS = [
      'mcp-tool.weather.get_alerts.input',
      'mcp-tool.weather.get_alerts.output',
      'mcp-tool.stats.draw_chart.input',
      'mcp-tool.stats.echo.input',
    ];
    const withScopes = async (scopes: string[]) => ({
      authorization: await bearerFor({ audience: 'gateway', scopes }),
    });
    const assertJsonError = async (
      response: Response,
      status: number,
      code: string,
    ): Promise<Record<string, unknown>> => {
      assert.equal(response.status, status);
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as { error?: Record<string, unknown> };
      assert.equal(body.error?.code, code);
      assert.doesNotMatch(JSON.stringify(body), /\bat .*\.js:\d+/, 'no stack');
      return body.error;
    };

    test('agents that cannot list their tools are a 503 with a JSON error for a caller with tools:list', async () => {
      suite.fake.fail('ListTools', GrpcStatus.UNAVAILABLE, 'agents restarting');
      const headers = await withScopes(['tools:list']);
      for (const path of ['/schemas', '/schemas/mcp-tool.weather.get_alerts.input']) {
        await assertJsonError(await get(path, headers), 503, 'TOOLS_UNAVAILABLE');
      }
      assert.equal((await listSchemas()).schemas.length > 0, true, 'anonymous callers are not affected');
    });

    // The first of the tests whose listing succeeds: the catalog has not been read yet.
    test('a caller with tools:list gets them listed, read once from the agents with its token narrowed to no scope', async () => {
      const headers = await withScopes(['tools:list']);
      const list = await listSchemas(headers);
      const tools = list.schemas.filter((entry) => entry.kind.startsWith('mcp-tool'));
      assert.deepEqual(tools.map((entry) => entry.id).sort(), [...TOOL_IDS].sort());
      const byId = new Map(tools.map((entry) => [entry.id, entry]));
      assert.deepEqual(
        { ...byId.get('mcp-tool.weather.get_alerts.input')!, sha256: undefined, bytes: undefined },
        {
          id: 'mcp-tool.weather.get_alerts.input',
          kind: 'mcp-tool-input',
          version: '1',
          describes: 'weather/get_alerts inputSchema',
          contentType: 'application/schema+json',
          sha256: undefined,
          bytes: undefined,
          href: '/schemas/mcp-tool.weather.get_alerts.input',
        },
      );
      assert.equal(byId.get('mcp-tool.weather.get_alerts.output')!.kind, 'mcp-tool-output');
      assert.equal(
        byId.get('mcp-tool.stats.draw_chart.input')!.version,
        CONTRACT_VERSION,
        'a tool without a version: the contract version',
      );
      const anonymous = (await listSchemas()).schemas.map((entry) => entry.id);
      assert.deepEqual(
        list.schemas.map((entry) => entry.id).filter((id) => !byId.has(id)),
        anonymous,
        'and every other entry',
      );

      await listSchemas(headers);
      const reads = suite.fake.callsTo('ListTools');
      assert.equal(reads.length, 1, 'the listing is cached');
      const token = /^Bearer (.+)$/.exec(reads[0].metadata.authorization ?? '')?.[1];
      const claims = JSON.parse(Buffer.from(token!.split('.')[1], 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      assert.equal(claims.sub, TEST_SUBJECT);
      assert.equal(claims.aud, 'agents');
      assert.ok(!claims.scope || claims.scope === '', `no scope: ${String(claims.scope)}`);
      assert.notEqual(reads[0].metadata.authorization, headers.authorization, "never the caller's own token");
    });

    test("each is served with its hash, and is exactly what tools.list publishes as the tool's schema", async () => {
      const headers = await withScopes(['tools:list']);
      for (const entry of (await listSchemas(headers)).schemas.filter((candidate) =>
        candidate.kind.startsWith('mcp-tool'),
      )) {
        const response = await get(entry.href, headers);
        assert.equal(response.status, 200, entry.id);
        assert.equal(response.headers.get('content-type'), entry.contentType, entry.id);
        const body = new Uint8Array(await response.arrayBuffer());
        assert.equal(body.length, entry.bytes, entry.id);
        assert.equal(sha256(body), entry.sha256, entry.id);
      }
      assert.deepEqual(
        await (await get('/schemas/mcp-tool.weather.get_alerts.input', headers)).json(),
        WEATHER_TOOL_INPUT_SCHEMA,
      );
      assert.deepEqual(
        await (await get('/schemas/mcp-tool.weather.get_alerts.output', headers)).json(),
        WEATHER_TOOL_OUTPUT_SCHEMA,
      );
      const unknown = await assertJsonError(
        await get('/schemas/mcp-tool.weather.no_such_tool.input', headers),
        404,
        'SCHEMA_NOT_FOUND',
      );
      assert.match(String(unknown.message), /mcp-tool\.weather\.no_such_tool\.input/);
    });

    test('an anonymous caller gets no tool entry, and a 401 with a Bearer challenge for a tool schema', async () => {
      const ids = (await listSchemas()).schemas.map((entry) => entry.id);
      assert.deepEqual(
        ids.filter((id) => id.startsWith('mcp-tool')),
        [],
      );
      for (const id of ['mcp-tool.weather.get_alerts.input', 'mcp-tool.weather.no_such_tool.input']) {
        const response = await get(`/schemas/${id}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer realm="gateway"/);
        await assertJsonError(response, 401, 'UNAUTHENTICATED');
      }
      assert.equal(suite.fake.callsTo('ListTools').length, 0);
    });

    test('a token that does not verify is a 401 with a JSON error, never an anonymous request, for any document', async () => {
      const expired = await new TokenMinter({
        issuer: 's2sp-dev',
        signingKey: new DevKeyStore(),
        now: () => Date.now() - 2 * 3600_000,
      }).mint({
        subject: TEST_SUBJECT,
        scopes: ['tools:list'],
        audience: 'gateway',
        ttlSeconds: 60,
      });
      const valid = (await withScopes(['tools:list'])).authorization;
      const forged = `${valid.slice(0, -4)}${valid.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
      const badTokens = {
        expired: `Bearer ${expired}`,
        forged,
        'another audience': await bearerFor({ audience: 'agents', scopes: ['tools:list'] }),
        'not a bearer token': 'Basic dXNlcjpwdw==',
      };
      for (const [why, authorization] of Object.entries(badTokens)) {
        for (const path of ['/schemas', '/schemas/mcp-tool.weather.get_alerts.input', '/schemas/openrpc']) {
          const response = await get(path, { authorization });
          assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer /, `${why}: ${path}`);
          const error = await assertJsonError(response, 401, 'UNAUTHENTICATED');
          assert.equal(error.message, 'Invalid or expired credentials.', why);
        }
      }
      assert.equal(suite.fake.callsTo('ListTools').length, 0);
    });

    test('a valid token without tools:list lists the other entries only; a tool schema is a 403 naming the scope', async () => {
      const headers = await withScopes(['tools:call', 'tasks:read']);
      const ids = (await listSchemas(headers)).schemas.map((entry) => entry.id);
      assert.deepEqual(
        ids,
        (await listSchemas()).schemas.map((entry) => entry.id),
      );
      assert.equal((await get('/schemas/openrpc', headers)).status, 200, 'a public document is served to it');
      const response = await get('/schemas/mcp-tool.weather.get_alerts.input', headers);
      assert.match(response.headers.get('www-authenticate') ?? '', /error="insufficient_scope"/);
      const error = await assertJsonError(response, 403, 'PERMISSION_DENIED');
      assert.match(JSON.stringify(error), /tools:list/);
      assert.equal(suite.fake.callsTo('ListTools').length, 0);
    });
  });
});

describe('schema ids of MCP tools whose names do not fit an id', () => {
  const descriptor = (server: string, name: string) => v1.ToolDescriptor.create({ name, server });
  const idsOf = (server: string, name: string) =>
    toolSchemaDocuments(descriptor(server, name)).map((document) => document.id);

  test('a tool name with dots keeps the readable id; the server segment never has one', () => {
    assert.deepEqual(idsOf('stats', 'charts.bar'), ['mcp-tool.stats.charts.bar.input']);
  });

  test('a server with a dot, a name outside the id alphabet or too long an id: an id by hash, still unique', () => {
    const HASHED = /^mcp-tool-sha256\.[0-9a-f]{32}\.input$/;
    const tools: Array<[string, string]> = [
      ['a.b', 'c'],
      ['a', 'b.c'],
      ['stats', 'draw chart'],
      ['stats', 'x'.repeat(90)],
    ];
    const documents = tools.flatMap(([server, name]) => toolSchemaDocuments(descriptor(server, name)));
    assert.deepEqual(
      documents.map((document) => HASHED.test(document.id)),
      [true, false, true, true],
    );
    assert.equal(documents[1].id, 'mcp-tool.a.b.c.input');
    assert.equal(schemaDocuments(documents).size, 4, 'valid ids, none taken twice');
    assert.equal(documents[2].describes, 'stats/draw chart inputSchema', 'describes still names server and tool');
  });
});
