import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as protoLoader from '@grpc/proto-loader';
import * as grpc from '@grpc/grpc-js';
import { PROTO_FILES, PROTO_LOADER_OPTIONS } from '../../libs/contracts/src';
import { PROTO_ROOT } from '../../libs/contracts/src/internal';
import { PROTO_FILE_PATHS } from '../../libs/contracts/src/proto-path';

interface EnumDefinition {
  format: string;
  type: { value: Array<{ name: string; number: number }> };
}

function loadAll(): protoLoader.PackageDefinition {
  return protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS });
}

describe('s2sp.v1 proto contracts', () => {
  test("the proto root is the package's own proto/, a copy of the repository's, and holds every listed file", () => {
    const packageDir = realpathSync(dirname(require.resolve('@s2sp/contracts/package.json')));
    assert.equal(realpathSync(PROTO_ROOT), join(packageDir, 'proto'));
    for (const [index, file] of PROTO_FILE_PATHS.entries()) {
      assert.ok(existsSync(file), file);
      assert.deepEqual(
        readFileSync(file),
        readFileSync(join(__dirname, '..', '..', '..', 'proto', PROTO_FILES[index])),
        file,
      );
    }
  });

  test('each file loads on its own and all together, by relative and absolute path', () => {
    for (const file of PROTO_FILES) protoLoader.loadSync(file, { ...PROTO_LOADER_OPTIONS });
    const byAbsolutePath = protoLoader.loadSync([...PROTO_FILE_PATHS], { ...PROTO_LOADER_OPTIONS });
    assert.deepEqual(Object.keys(byAbsolutePath).sort(), Object.keys(loadAll()).sort());
  });

  test('the services declare the agreed methods and streaming shapes', () => {
    const pkg = grpc.loadPackageDefinition(loadAll()) as unknown as {
      s2sp: { v1: Record<string, grpc.ServiceClientConstructor> };
    };
    const tool = pkg.s2sp.v1.ToolService.service;
    const agent = pkg.s2sp.v1.AgentService.service;
    assert.deepEqual(Object.keys(tool).sort(), ['InvokeTool', 'ListServers', 'ListTools']);
    assert.deepEqual(Object.keys(agent).sort(), ['CancelTask', 'GetTask', 'StreamTask', 'SubmitTask']);
    assert.equal(agent.StreamTask.responseStream, true);
    assert.equal(agent.StreamTask.requestStream, false);
    assert.equal(agent.SubmitTask.responseStream, false);
  });

  test('every enum starts with <ENUM>_UNSPECIFIED = 0 and prefixes its values', () => {
    const definition = loadAll();
    const enums = Object.entries(definition).filter(
      ([name, value]) =>
        name.startsWith('s2sp.') && (value as { format?: string }).format?.includes('EnumDescriptorProto'),
    );
    const names = enums.map(([name]) => name.replace('s2sp.v1.', '')).sort();
    for (const expected of [
      'MutationClass',
      'TaskStatus',
      'StepType',
      'StepOutcome',
      'ToolResultStatus',
      'CancelMode',
    ]) {
      assert.ok(names.includes(expected), `missing enum ${expected}`);
    }
    for (const [name, value] of enums) {
      const values = (value as unknown as EnumDefinition).type.value;
      const prefix = name
        .split('.')
        .pop()!
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toUpperCase();
      assert.equal(values[0].name, `${prefix}_UNSPECIFIED`, name);
      assert.equal(values[0].number, 0, name);
      for (const member of values) assert.ok(member.name.startsWith(`${prefix}_`), `${name}.${member.name}`);
    }
  });

  test('MutationClass has the five agreed values in order', () => {
    const values = (loadAll()['s2sp.v1.MutationClass'] as unknown as EnumDefinition).type.value;
    assert.deepEqual(
      values.map((value) => [value.name, value.number]),
      [
        ['MUTATION_CLASS_UNSPECIFIED', 0],
        ['MUTATION_CLASS_READ_ONLY', 1],
        ['MUTATION_CLASS_IDEMPOTENT_WRITE', 2],
        ['MUTATION_CLASS_NON_IDEMPOTENT_WRITE', 3],
        ['MUTATION_CLASS_DESTRUCTIVE', 4],
      ],
    );
  });
});
