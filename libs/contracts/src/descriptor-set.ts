import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { FileDescriptorProtoSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';

/**
 * The google.protobuf.FileDescriptorSets that scripts/proto-generate.js builds
 * with buf next to the generated code: the descriptors exactly as the
 * compiler wrote them, one per .proto file under its own name, with its
 * `dependency` list, its options (custom ones such as
 * `(s2sp.v1.contract_version)` included) and its comments.
 * @public
 */
export const DESCRIPTOR_SETS = Object.freeze({
  /** The s2sp.v1 files and every file they import (google/protobuf/*.proto). */
  contract: 's2sp.binpb',
  /** grpc.health.v1, from the health.proto grpc-health-check ships. */
  health: 'grpc-health.binpb',
});

/**
 * The file name of one of {@link DESCRIPTOR_SETS}.
 * @public
 */
export type DescriptorSetName = (typeof DESCRIPTOR_SETS)[keyof typeof DESCRIPTOR_SETS];

/**
 * Absolute path of a descriptor set: in the package, next to the compiled
 * generated code (`npm run build` copies the sets there from src/generated).
 */
export function descriptorSetPath(name: DescriptorSetName): string {
  return join(__dirname, 'generated', name);
}

/**
 * One file of a descriptor set: the bytes the compiler encoded, and the descriptor they decode to.
 * @public
 */
export interface EncodedFileDescriptor {
  /** The encoded google.protobuf.FileDescriptorProto, as it stands in the set. */
  readonly bytes: Uint8Array;
  /** The same, decoded (unknown fields, such as custom options, kept in `$unknown`). */
  readonly proto: FileDescriptorProto;
}

/**
 * The files of a descriptor set, in the set's order (each after the files it imports).
 * @public
 */
export function readDescriptorSet(name: DescriptorSetName): EncodedFileDescriptor[] {
  return splitFileDescriptorSet(readFileSync(descriptorSetPath(name)));
}

/** Field number of FileDescriptorSet.file. */
const FILE_FIELD = 1;

/**
 * The files of an encoded FileDescriptorSet, each kept as its own bytes, so
 * that whoever passes them on passes on exactly what the compiler wrote,
 * unknown fields and all.
 */
export function splitFileDescriptorSet(set: Uint8Array): EncodedFileDescriptor[] {
  const reader = new BinaryReader(set);
  const files: EncodedFileDescriptor[] = [];
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    if (fieldNo === FILE_FIELD && wireType === WireType.LengthDelimited) {
      const bytes = reader.bytes();
      files.push({ bytes, proto: fromBinary(FileDescriptorProtoSchema, bytes) });
    } else {
      reader.skip(wireType, fieldNo);
    }
  }
  return files;
}
