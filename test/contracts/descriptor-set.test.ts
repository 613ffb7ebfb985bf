// The descriptor sets scripts/proto-generate.js builds with buf, as
// readDescriptorSet hands them out: whole, in import order, byte for byte.
import assert from 'node:assert/strict';
import { realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import { WireType } from '@bufbuild/protobuf/wire';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, FileOptionsSchema } from '@bufbuild/protobuf/wkt';
import { DESCRIPTOR_SETS, PROTO_FILES, readDescriptorSet } from '../../libs/contracts/src';
import { descriptorSetPath, splitFileDescriptorSet } from '../../libs/contracts/src/descriptor-set';

describe('descriptor sets', () => {
  test('ship inside the package, next to its compiled code, wherever the process runs from', () => {
    const packageDir = realpathSync(dirname(require.resolve('@s2sp/contracts/package.json')));
    for (const name of Object.values(DESCRIPTOR_SETS)) {
      const path = descriptorSetPath(name);
      assert.ok(realpathSync(path).startsWith(join(packageDir, 'dist', 'generated')), path);
      assert.ok(statSync(path).size > 0, path);
    }
  });

  test('the contract set holds every s2sp.v1 file and all it imports, each after its imports', () => {
    const names = readDescriptorSet(DESCRIPTOR_SETS.contract).map((file) => file.proto.name);
    assert.equal(new Set(names).size, names.length, `a file twice in ${names.join(', ')}`);
    for (const file of PROTO_FILES) assert.ok(names.includes(file), `${file} missing from ${names.join(', ')}`);
    for (const [position, file] of readDescriptorSet(DESCRIPTOR_SETS.contract).entries()) {
      for (const dependency of file.proto.dependency) {
        const at = names.indexOf(dependency);
        assert.ok(at >= 0 && at < position, `${file.proto.name} imports ${dependency}, not before it in the set`);
      }
    }
  });

  test('the health set declares grpc.health.v1.Health', () => {
    const services = readDescriptorSet(DESCRIPTOR_SETS.health).flatMap((file) =>
      file.proto.service.map((service) => `${file.proto.package}.${service.name}`),
    );
    assert.deepEqual(services, ['grpc.health.v1.Health']);
  });

  test('splitting a set gives back each file as it was encoded, unknown fields included', () => {
    const files = ['a.proto', 'b.proto'].map((name) =>
      create(FileDescriptorProtoSchema, { name, package: 'split.test' }),
    );
    // A custom file option this decoder does not know: field 50000, the string "1.0.0".
    const options = create(FileOptionsSchema);
    options.$unknown = [
      { no: 50000, wireType: WireType.LengthDelimited, data: new Uint8Array([5, ...Buffer.from('1.0.0')]) },
    ];
    files[1].options = options;
    const set = toBinary(FileDescriptorSetSchema, create(FileDescriptorSetSchema, { file: files }));
    const split = splitFileDescriptorSet(set);
    assert.deepEqual(
      split.map((file) => Buffer.from(file.bytes)),
      files.map((file) => Buffer.from(toBinary(FileDescriptorProtoSchema, file))),
    );
    assert.deepEqual(
      split.map((file) => file.proto.name),
      ['a.proto', 'b.proto'],
    );
    assert.deepEqual(
      split[1]?.proto.options?.$unknown?.map((field) => field.no),
      [50000],
    );
  });
});
