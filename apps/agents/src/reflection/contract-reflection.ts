import type { Server } from '@grpc/grpc-js';
import { loadSync, type PackageDefinition } from '@grpc/proto-loader';
import { ReflectionService } from '@grpc/reflection';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { CONTRACT_VERSION_OPTION, PACKAGE_CONTRACT_VERSIONS, PROTO_FILES, PROTO_LOADER_OPTIONS } from '@s2sp/contracts';
import { createRequire } from 'node:module';
import type * as Protobuf from 'protobufjs';
import type * as Descriptor from 'protobufjs/ext/descriptor';

/**
 * @grpc/reflection decodes and re-encodes descriptors with protobufjs's own
 * descriptor types, so the protobufjs it loads is the one to teach the option
 * to (resolved from its location: protobufjs is its dependency, not ours).
 */
const reflectionRequire = createRequire(require.resolve('@grpc/reflection'));
const protobuf = reflectionRequire('protobufjs') as typeof Protobuf;
const descriptor = reflectionRequire('protobufjs/ext/descriptor') as typeof Descriptor;

/** protobufjs names the field an extension adds to the extended type after the extension's full name. */
const OPTION_FIELD = `.${CONTRACT_VERSION_OPTION.name}`;

/**
 * Serves grpc.reflection.v1 (and v1alpha) on `server` for the s2sp.v1
 * services and grpc.health.v1.Health, so that grpcurl, Postman or any reflection client can list them
 * and fetch their descriptors, which carry the contract version in the
 * `(s2sp.v1.contract_version)` file option.
 *
 * The descriptors come from the .proto files loaded with @grpc/proto-loader,
 * whatever the server itself encodes messages with. protobufjs, under both
 * proto-loader and @grpc/reflection, merges the files of one package into a
 * single descriptor (`s2sp_v1.proto`) and drops custom options: this adds the
 * option's field to protobufjs's FileOptions (as loading contract.proto into
 * the same root would) and stamps {@link CONTRACT_VERSION} into the s2sp.v1
 * descriptors, the value each s2sp.v1 file declares.
 */
export function addContractReflection(server: Pick<Server, 'addService'>): void {
  new ReflectionService(contractPackageDefinition()).addToServer(server);
}

/**
 * s2sp.v1 and grpc.health.v1 as @grpc/proto-loader loads them, the s2sp.v1
 * file descriptors stamped with the contract version.
 */
export function contractPackageDefinition(): PackageDefinition {
  registerContractVersionOption();
  const definition = loadSync([...PROTO_FILES, healthProtoPath], { ...PROTO_LOADER_OPTIONS });
  const stamped = new Map<Buffer, Buffer>();
  const stamp = (file: Buffer): Buffer => {
    let result = stamped.get(file);
    if (!result) stamped.set(file, (result = stampContractVersion(file)));
    return result;
  };
  for (const type of Object.values(definition)) {
    if ('fileDescriptorProtos' in type && Array.isArray(type.fileDescriptorProtos)) {
      type.fileDescriptorProtos = type.fileDescriptorProtos.map(stamp);
    }
  }
  return definition;
}

/** Idempotent: the field is added to protobufjs's FileOptions once per process. */
function registerContractVersionOption(): void {
  const fileOptions = descriptor.FileOptions as unknown as Protobuf.Type;
  if (fileOptions.fields[OPTION_FIELD]) return;
  fileOptions.add(new protobuf.Field(OPTION_FIELD, CONTRACT_VERSION_OPTION.number, 'string'));
}

function stampContractVersion(encoded: Buffer): Buffer {
  const file = descriptor.FileDescriptorProto.decode(encoded) as unknown as { package?: string; options?: Record<string, unknown> | null };
  const version = file.package ? PACKAGE_CONTRACT_VERSIONS[file.package] : undefined;
  if (version === undefined) return encoded;
  file.options = { ...(file.options ?? {}), [OPTION_FIELD]: version };
  return Buffer.from(descriptor.FileDescriptorProto.encode(file).finish());
}
