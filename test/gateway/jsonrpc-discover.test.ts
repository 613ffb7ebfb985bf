import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

type Doc = {
  openrpc: string;
  info: { title: string; version: string };
  methods: Array<{
    name: string;
    summary?: string;
    description?: string;
    paramStructure: string;
    params: Array<{ name: string; required?: boolean; schema: any }>;
    result: { name: string; schema: any };
    'x-idempotent'?: boolean;
    'x-positional-rest'?: string;
  }>;
  components: { schemas: Record<string, any> };
};

const SAMPLE_METHODS = [
  'context.echo',
  'explode',
  'explode.async',
  'fail.grpc.unavailable',
  'fail.rate',
  'fail.recursion',
  'forbidden.http',
  'get_data',
  'guarded',
  'notify_hello',
  'notify_sum',
  'slow',
  'subtract',
  'sum',
  'task.submit',
  'unserializable',
  'update',
];

describe('rpc.discover', () => {
  let server: TestApp;
  let doc: Doc;
  before(async () => {
    server = await startTestApp({ info: { title: 'test gateway', version: '9.9.9' } });
    const reply = await postRaw(server.url, '{"jsonrpc":"2.0","method":"rpc.discover","id":1}');
    doc = (reply.json as { result: Doc }).result;
  });
  after(async () => server.close());

  const method = (name: string) => doc.methods.find((m) => m.name === name)!;

  test('is an OpenRPC 1.3 document listing every registered method', () => {
    assert.match(doc.openrpc, /^1\.3\.\d+$/);
    assert.deepEqual(doc.info, { title: 'test gateway', version: '9.9.9' });
    assert.deepEqual(
      doc.methods.map((m) => m.name),
      SAMPLE_METHODS,
    );
  });

  test('positional methods: params in position order, structure "either"', () => {
    assert.deepEqual(method('subtract'), {
      name: 'subtract',
      summary: 'minuend - subtrahend',
      paramStructure: 'either',
      params: [
        { name: 'minuend', required: true, schema: { type: 'number' } },
        { name: 'subtrahend', required: true, schema: { type: 'number' } },
      ],
      result: { name: 'result', schema: { type: 'number' } },
      'x-idempotent': true,
    });
    assert.deepEqual(method('sum').params, [
      { name: 'values', required: true, schema: { type: 'array', items: { type: 'number' } } },
    ]);
    assert.equal(method('sum')['x-positional-rest'], 'values');
  });

  test('a by-name DTO method: every property with the schema its decorators imply, plus deadline_ms', () => {
    const submit = method('task.submit');
    assert.equal(submit.paramStructure, 'by-name');
    assert.equal(submit.summary, 'Submit an agent task');
    assert.deepEqual(submit.params, [
      { name: 'objective', required: true, schema: { type: 'string', minLength: 1, maxLength: 2000 } },
      { name: 'agent_type', required: false, schema: { type: 'string', enum: ['planner', 's2sp-pipeline'] } },
      { name: 'constraints', required: false, schema: { $ref: '#/components/schemas/ConstraintsDto' } },
      {
        name: 'context_refs',
        required: false,
        schema: { type: 'array', maxItems: 10, items: { $ref: '#/components/schemas/ContextRefDto' } },
      },
      { name: 'tags', required: false, schema: { type: 'array', items: { type: 'string' } } },
      { name: 'dry_run', required: false, schema: { type: 'boolean' } },
      { name: 'metadata', required: false, schema: { type: 'object' } },
      {
        name: 'deadline_ms',
        required: false,
        description:
          'Absolute deadline, ms since the epoch; consumed by the gateway (same as the X-Deadline-Ms header)',
        schema: { type: 'integer', minimum: 0 },
      },
    ]);
    assert.deepEqual(doc.components.schemas.ConstraintsDto, {
      type: 'object',
      properties: {
        max_steps: { type: 'integer', minimum: 1, maximum: 50 },
        token_budget: { type: 'integer', minimum: 0 },
      },
      additionalProperties: false,
    });
    assert.deepEqual(doc.components.schemas.ContextRefDto, {
      type: 'object',
      properties: { uri: { type: 'string', minLength: 1 } },
      required: ['uri'],
      additionalProperties: false,
    });
    assert.deepEqual(submit.result.schema, {
      type: 'object',
      properties: { task_id: { type: 'string' }, status: { type: 'string', enum: ['ACCEPTED'] } },
      required: ['task_id', 'status'],
      additionalProperties: false,
    });
  });

  test('methods without a DTO publish no params; descriptions come through', () => {
    assert.deepEqual(method('get_data').params, []);
    assert.equal(method('get_data').description, 'Returns fixed data, as in the specification examples');
    assert.deepEqual(method('update').result.schema, {});
  });

  test('the published "required" flags are exactly what validation enforces', async () => {
    const valid: Record<string, unknown> = {
      objective: 'x',
      agent_type: 'planner',
      constraints: { max_steps: 1 },
      context_refs: [],
      tags: [],
      dry_run: false,
      metadata: {},
    };
    for (const param of method('task.submit').params.filter((p) => p.name !== 'deadline_ms')) {
      const { [param.name]: _omitted, ...rest } = valid;
      const reply = (
        await postRaw(server.url, JSON.stringify({ jsonrpc: '2.0', method: 'task.submit', params: rest, id: 1 }))
      ).json as any;
      if (param.required) {
        assert.equal(reply.error?.code, -32602, param.name);
        assert.deepEqual(
          reply.error.data.fields.map((f: { path: string }) => f.path),
          [param.name],
        );
      } else {
        assert.equal(reply.result?.status, 'ACCEPTED', param.name);
      }
    }
  });

  test('additionalProperties: false matches the rejection of unknown params', async () => {
    assert.equal(doc.components.schemas.ConstraintsDto.additionalProperties, false);
    const reply = (
      await postRaw(
        server.url,
        JSON.stringify({
          jsonrpc: '2.0',
          method: 'task.submit',
          params: { objective: 'x', constraints: { extra: 1 } },
          id: 1,
        }),
      )
    ).json as any;
    assert.deepEqual(
      reply.error.data.fields.map((f: { path: string }) => f.path),
      ['constraints.extra'],
    );
  });
});
