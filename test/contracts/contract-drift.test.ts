import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IsIn, IsInt, IsOptional, IsString, IsUUID } from 'class-validator';
import { PROTO_FILES } from '@s2sp/contracts';
import { PROTO_ROOT } from '@s2sp/contracts/internal';
import { GOOGLE_PROTOS_DIR } from '../../libs/contracts/src/proto-loader-options';
import { S2SP_RESOURCE_EXTENSION_PARAMETERS } from '@s2sp/platform';
import { S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_PARAMETERS } from '@s2sp/platform/internal';
import { type OpenRpcDocument } from '@s2sp/json-rpc/internal';
import { buildOpenRpcDocument } from '../../libs/json-rpc/src/openrpc/openrpc-document';
import { DEADLINE_PARAM } from '../../libs/json-rpc/src/call-deadline';
import {
  checkCorrespondence,
  gatewayOpenRpcDocument,
  loadProtoCatalog,
  mcpCorrespondences,
  METHOD_CORRESPONDENCES,
  methodCorrespondences,
  OPAQUE_PARTS,
  publishedCorrespondences,
  type Correspondence,
  type Disagreement,
  type MethodCorrespondence,
  type ProtoCatalog,
} from '../support/contract-drift';

const catalog = loadProtoCatalog();

/** The disagreements as "kind at", the part a reader (and an assertion) cares about. */
function summary(found: Disagreement[]): string[] {
  return found.map((disagreement) => `${disagreement.kind} ${disagreement.at}`);
}

function checkPublished(
  name: string,
  protoCatalog: ProtoCatalog = catalog,
  edit?: (document: OpenRpcDocument) => void,
): Disagreement[] {
  const document = gatewayOpenRpcDocument();
  edit?.(document);
  const pair = methodCorrespondences(document).find((candidate) => candidate.name === name);
  assert.ok(pair, `no declared pair ${name}`);
  return checkCorrespondence(pair, protoCatalog);
}

describe('contract drift: published JSON Schemas against the protos', () => {
  for (const pair of publishedCorrespondences()) {
    test(`${pair.name} agrees with ${pair.proto}`, () => {
      assert.deepEqual(checkCorrespondence(pair, catalog), []);
    });
  }

  test('every method rpc.discover publishes has its params and result declared: paired with a message, or opaque with a reason', () => {
    const declared = [...METHOD_CORRESPONDENCES, ...OPAQUE_PARTS]
      .map((entry) => `${entry.method} ${entry.part}`)
      .sort();
    const published = gatewayOpenRpcDocument()
      .methods.flatMap((method) => [`${method.name} params`, `${method.name} result`])
      .sort();
    assert.deepEqual(declared, published);
  });

  test('the MCP pairs cover exactly the parameters S2SP adds to tools', () => {
    const [resource, consumer] = mcpCorrespondences();
    assert.deepEqual(Object.keys(resource.schema.properties ?? {}), [
      ...S2SP_RESOURCE_PARAMETERS,
      ...S2SP_RESOURCE_EXTENSION_PARAMETERS,
    ]);
    assert.deepEqual(Object.keys(consumer.schema.properties ?? {}), [...S2SP_CONSUMER_PARAMETERS]);
  });

  test('requiredness comes from the descriptor: the (s2sp.v1.required) option, message fields and oneof members, proto3 defaults', () => {
    const presence = (message: string, field: string) =>
      catalog.message(message).fields.find((candidate) => candidate.name === field)?.presence;
    assert.equal(presence('s2sp.v1.AgentTask', 'plan'), 'required');
    assert.equal(presence('s2sp.v1.GetTaskRequest', 'task_id'), 'required');
    assert.equal(presence('s2sp.v1.AgentTask', 'constraints'), 'explicit');
    assert.equal(presence('s2sp.v1.PlanStep', 'filter'), 'explicit');
    assert.equal(presence('s2sp.v1.CancelTaskRequest', 'mode'), 'implicit');
    assert.deepEqual(
      catalog.message('s2sp.v1.ConsumerCallStep').fields.find((field) => field.name === 'column_mapping'),
      {
        name: 'column_mapping',
        type: 'string',
        kind: 'scalar',
        repeated: false,
        mapKey: 'string',
        presence: 'implicit',
      },
    );
  });
});

/*
 * The checker bites: each fixture differs from an agreeing shape in one
 * respect, and exactly that difference is reported.
 */

class AgreeingCancelParams {
  @IsUUID()
  task_id!: string;

  @IsOptional()
  @IsIn(['soft', 'hard'])
  mode?: string;

  @IsOptional()
  @IsString()
  reason?: string;
}

class RenamedFieldCancelParams {
  @IsUUID()
  taskId!: string;

  @IsOptional()
  @IsIn(['soft', 'hard'])
  mode?: string;

  @IsOptional()
  @IsString()
  reason?: string;
}

class RetypedFieldCancelParams {
  @IsUUID()
  task_id!: string;

  @IsOptional()
  @IsIn(['soft', 'hard'])
  mode?: string;

  @IsOptional()
  @IsInt()
  reason?: number;
}

class RequiredFieldCancelParams {
  @IsUUID()
  task_id!: string;

  @IsOptional()
  @IsIn(['soft', 'hard'])
  mode?: string;

  @IsString()
  reason!: string;
}

class ExtraEnumValueCancelParams {
  @IsUUID()
  task_id!: string;

  @IsOptional()
  @IsIn(['soft', 'hard', 'later'])
  mode?: string;

  @IsOptional()
  @IsString()
  reason?: string;
}

const FIXTURE_METHOD = 'fixture.cancelTask';
const EDGE_ONLY = { jsonOnly: { [DEADLINE_PARAM]: 'consumed by the JSON-RPC engine' } };

/** A fixture DTO as the OpenRPC generator publishes it, paired with CancelTaskRequest. */
function checkFixture(
  params: new () => object,
  rules: MethodCorrespondence['rules'] = { 's2sp.v1.CancelTaskRequest': EDGE_ONLY },
): Disagreement[] {
  const document = buildOpenRpcDocument([{ name: FIXTURE_METHOD, params }], { title: 'fixture', version: '0' });
  const [pair] = methodCorrespondences(document, [
    { method: FIXTURE_METHOD, part: 'params', proto: 's2sp.v1.CancelTaskRequest', rules },
  ]);
  return checkCorrespondence(pair, catalog);
}

/** The s2sp.v1 protos copied to a temporary folder with one edit, loaded like the real ones. */
function editedProtoCatalog(file: string, from: string, to: string): ProtoCatalog {
  const dir = mkdtempSync(join(tmpdir(), 'contract-drift-'));
  try {
    cpSync(PROTO_ROOT, dir, { recursive: true });
    const path = join(dir, file);
    const text = readFileSync(path, 'utf8');
    assert.ok(text.includes(from), `${file} has no "${from}"`);
    writeFileSync(path, text.replace(from, to));
    return loadProtoCatalog(PROTO_FILES, [dir, GOOGLE_PROTOS_DIR]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('contract drift: the checker reports each kind of disagreement', () => {
  test('a DTO that agrees with its message: nothing reported (the baseline of the fixtures below)', () => {
    assert.deepEqual(checkFixture(AgreeingCancelParams), []);
  });

  test('a renamed DTO field: the JSON member without a proto field, and the proto field without a JSON member', () => {
    assert.deepEqual(summary(checkFixture(RenamedFieldCancelParams)), [
      `name ${FIXTURE_METHOD} params: taskId`,
      `name ${FIXTURE_METHOD} params: (s2sp.v1.CancelTaskRequest.task_id)`,
    ]);
  });

  test('a changed type: the field and both types', () => {
    const found = checkFixture(RetypedFieldCancelParams);
    assert.deepEqual(summary(found), [`type ${FIXTURE_METHOD} params: reason`]);
    assert.match(found[0].detail, /is integer, but proto string needs string/);
  });

  test('a changed requiredness: the field, required on one side only', () => {
    const found = checkFixture(RequiredFieldCancelParams);
    assert.deepEqual(summary(found), [`required ${FIXTURE_METHOD} params: reason`]);
    assert.match(found[0].detail, /required here, but the proto field is optional/);
  });

  test('an enum offering a value the proto enum lacks', () => {
    const found = checkFixture(ExtraEnumValueCancelParams);
    assert.deepEqual(summary(found), [`type ${FIXTURE_METHOD} params: mode`]);
    assert.match(found[0].detail, /offers later, not values of enum s2sp\.v1\.CancelMode/);
  });

  test('a declared difference that does not occur is reported as stale', () => {
    const found = checkFixture(AgreeingCancelParams, {
      's2sp.v1.CancelTaskRequest': {
        ...EDGE_ONLY,
        protoOnly: { reason: 'not offered' },
        requiredness: { task_id: 'no longer differs' },
      },
    });
    assert.deepEqual(
      found.map((disagreement) => disagreement.detail),
      [
        'rules.protoOnly.reason is declared, but the difference it excuses does not occur',
        'rules.requiredness.task_id is declared, but the difference it excuses does not occur',
      ],
    );
  });

  test('a renamed member of a nested DTO ($ref into components) is found under its path', () => {
    const found = checkPublished('agent.submitTask params', catalog, (document) => {
      const filter = document.components.schemas.FilterStepDto;
      const { predicate, ...rest } = filter.properties ?? {};
      filter.properties = { ...rest, where: predicate };
      filter.required = filter.required?.map((name) => (name === 'predicate' ? 'where' : name));
    });
    assert.deepEqual(summary(found), [
      'name agent.submitTask params: plan[].filter.where',
      'name agent.submitTask params: plan[].filter (s2sp.v1.FilterStep.predicate)',
    ]);
  });

  test('a result schema losing "unspecified" from an enum, and a result member whose declared difference went away', () => {
    const found = checkPublished('agent.getTask result', catalog, (document) => {
      const schema = document.methods.find((method) => method.name === 'agent.getTask')!.result.schema;
      const status = schema.properties!.status;
      schema.properties!.status = { ...status, enum: status.enum!.filter((value) => value !== 'unspecified') };
      schema.required = schema.required!.filter((name) => name !== 'usage');
    });
    assert.deepEqual(summary(found), [
      'type agent.getTask result: status',
      'stale-exception agent.getTask result: s2sp.v1.TaskSnapshot',
    ]);
    assert.match(found[1].detail, /rules\.requiredness\.usage/);
  });

  test('a proto field changing type is reported against the unchanged DTO', () => {
    const retyped = editedProtoCatalog('s2sp/v1/agent.proto', '  string reason = 3;', '  uint32 reason = 3;');
    const found = checkPublished('agent.cancelTask params', retyped);
    assert.deepEqual(summary(found), ['type agent.cancelTask params: reason']);
    assert.match(found[0].detail, /is string, but proto uint32 needs integer/);
  });

  test('a proto field losing its required option is reported against the DTO that still requires it', () => {
    const optional = editedProtoCatalog(
      's2sp/v1/agent.proto',
      '  string task_id = 1 [(required) = true];\n}\n\nmessage GetTaskResponse',
      '  string task_id = 1;\n}\n\nmessage GetTaskResponse',
    );
    assert.deepEqual(summary(checkPublished('agent.getTask params', optional)), [
      'required agent.getTask params: task_id',
    ]);
  });

  test('an MCP tool parameter schema drifting from the proto field that carries it', () => {
    const [resource] = mcpCorrespondences();
    const mode = resource.schema.properties!.mode;
    const drifted: Correspondence = {
      ...resource,
      schema: {
        ...resource.schema,
        properties: { ...resource.schema.properties, mode: { ...mode, enum: ['async', 'inline'] } },
      },
    };
    const found = checkCorrespondence(drifted, catalog);
    assert.deepEqual(summary(found), [
      'type MCP resource tool input (S2SP parameters): mode',
      'type MCP resource tool input (S2SP parameters): mode',
    ]);
    assert.match(found[0].detail, /offers inline/);
    assert.match(found[1].detail, /lacks sync/);
  });
});
