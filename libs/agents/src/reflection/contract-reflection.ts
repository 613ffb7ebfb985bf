import {
  status,
  type Server,
  type ServerDuplexStream,
  type ServiceDefinition,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { loadSync } from '@grpc/proto-loader';
import type { DescriptorProto, EnumDescriptorProto, FieldDescriptorProto } from '@bufbuild/protobuf/wkt';
import { DESCRIPTOR_SETS, readDescriptorSet, type EncodedFileDescriptor } from '@s2sp/contracts';
import { dirname, join } from 'node:path';

/** The versions of grpc.reflection served; their messages are the same, only the package differs. */
export const REFLECTION_VERSIONS = ['v1', 'v1alpha'] as const;

export type ReflectionVersion = (typeof REFLECTION_VERSIONS)[number];

/** The reflection service's .proto, as @grpc/reflection ships it. */
export function reflectionProtoPath(version: ReflectionVersion): string {
  return join(
    dirname(require.resolve('@grpc/reflection')),
    '..',
    'proto',
    'grpc',
    'reflection',
    version,
    'reflection.proto',
  );
}

/** A ServerReflectionRequest as @grpc/proto-loader decodes it with {@link REFLECTION_LOADER_OPTIONS}. */
export interface ReflectionRequest {
  host?: string;
  message_request?: string;
  file_by_filename?: string;
  file_containing_symbol?: string;
  file_containing_extension?: { containing_type?: string; extension_number?: number };
  all_extension_numbers_of_type?: string;
  list_services?: string;
}

export interface ReflectionResponse {
  valid_host: string;
  original_request: ReflectionRequest;
  file_descriptor_response?: { file_descriptor_proto: Uint8Array[] };
  all_extension_numbers_response?: { base_type_name: string; extension_number: number[] };
  list_services_response?: { service: Array<{ name: string }> };
  error_response?: { error_code: number; error_message: string };
}

const REFLECTION_LOADER_OPTIONS = { keepCase: true, oneofs: true } as const;

class ReflectionError extends Error {
  constructor(
    readonly code: status,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Serves grpc.reflection.v1 (and v1alpha) on `server` for the s2sp.v1
 * services and grpc.health.v1.Health, so that grpcurl, Postman or any
 * reflection client can list them and fetch their descriptors.
 *
 * The descriptors are the compiler's (the descriptor sets of @s2sp/contracts,
 * built by buf), passed on byte for byte: each .proto file under its own name
 * with the `dependency` list a client follows with `file_by_filename`, its
 * options (the s2sp.v1 files carry the contract version in
 * `(s2sp.v1.contract_version)`) and its comments. @grpc/reflection would
 * re-encode them through protobufjs, which drops custom options; only its
 * .proto files are used here.
 */
export function addContractReflection(server: Pick<Server, 'addService'>): void {
  const reflection = new DescriptorReflection([
    ...readDescriptorSet(DESCRIPTOR_SETS.contract),
    ...readDescriptorSet(DESCRIPTOR_SETS.health),
  ]);
  const implementation: UntypedServiceImplementation = {
    ServerReflectionInfo: (call: ServerDuplexStream<ReflectionRequest, ReflectionResponse>) => {
      call.on('data', (request: ReflectionRequest) => call.write(reflection.respond(request)));
      call.on('end', () => call.end());
    },
  };
  for (const version of REFLECTION_VERSIONS) {
    const definition = loadSync(reflectionProtoPath(version), REFLECTION_LOADER_OPTIONS);
    server.addService(definition[`grpc.reflection.${version}.ServerReflection`] as ServiceDefinition, implementation);
  }
}

/** Answers reflection requests from a set of encoded file descriptors, indexed by file name, symbol and extension. */
export class DescriptorReflection {
  private readonly files = new Map<string, EncodedFileDescriptor>();
  private readonly symbols = new Map<string, EncodedFileDescriptor>();
  /** Extended message (full name) → extension field number → the file declaring the extension. */
  private readonly extensions = new Map<string, Map<number, EncodedFileDescriptor>>();
  private readonly services: string[] = [];

  /** Each file's imports must be among `files`: a client could not resolve the file otherwise. */
  constructor(files: Iterable<EncodedFileDescriptor>) {
    for (const file of files) {
      const known = this.files.get(file.proto.name);
      if (known) {
        if (Buffer.compare(known.bytes, file.bytes) !== 0)
          throw new Error(`two different descriptors of ${file.proto.name}`);
        continue;
      }
      this.files.set(file.proto.name, file);
      this.index(file);
    }
    for (const file of this.files.values()) {
      const missing = file.proto.dependency.filter((dependency) => !this.files.has(dependency));
      if (missing.length > 0)
        throw new Error(`${file.proto.name} imports ${missing.join(', ')}, which no descriptor set holds`);
    }
  }

  respond(request: ReflectionRequest): ReflectionResponse {
    const response: ReflectionResponse = { valid_host: request.host ?? '', original_request: request };
    try {
      switch (request.message_request) {
        case 'list_services':
          return { ...response, list_services_response: { service: this.services.map((name) => ({ name })) } };
        case 'file_by_filename':
          return {
            ...response,
            file_descriptor_response: this.withDependencies(
              this.files.get(request.file_by_filename ?? ''),
              `file ${request.file_by_filename}`,
            ),
          };
        case 'file_containing_symbol':
          return {
            ...response,
            file_descriptor_response: this.withDependencies(
              this.symbols.get(request.file_containing_symbol ?? ''),
              `symbol ${request.file_containing_symbol}`,
            ),
          };
        case 'file_containing_extension': {
          const { containing_type = '', extension_number = 0 } = request.file_containing_extension ?? {};
          const file = this.extensions.get(containing_type)?.get(extension_number);
          return {
            ...response,
            file_descriptor_response: this.withDependencies(
              file,
              `extension ${extension_number} of ${containing_type}`,
            ),
          };
        }
        case 'all_extension_numbers_of_type': {
          const type = request.all_extension_numbers_of_type ?? '';
          if (!this.symbols.has(type)) throw new ReflectionError(status.NOT_FOUND, `type not found: ${type}`);
          return {
            ...response,
            all_extension_numbers_response: {
              base_type_name: type,
              extension_number: [...(this.extensions.get(type)?.keys() ?? [])],
            },
          };
        }
        default:
          throw new ReflectionError(status.UNIMPLEMENTED, `unsupported reflection request: ${request.message_request}`);
      }
    } catch (error) {
      const { code, message } =
        error instanceof ReflectionError ? error : { code: status.INTERNAL, message: String(error) };
      return { ...response, error_response: { error_code: code, error_message: message } };
    }
  }

  /** The file first, then every file it imports, directly or not, each once. */
  private withDependencies(
    file: EncodedFileDescriptor | undefined,
    what: string,
  ): { file_descriptor_proto: Uint8Array[] } {
    if (!file) throw new ReflectionError(status.NOT_FOUND, `${what} not found`);
    const included = new Set([file]);
    for (const current of included) {
      for (const dependency of current.proto.dependency) {
        const dependencyFile = this.files.get(dependency);
        if (dependencyFile) included.add(dependencyFile);
      }
    }
    return { file_descriptor_proto: [...included].map((each) => each.bytes) };
  }

  /** Indexes the full name of everything the file declares, as protobuf scopes them. */
  private index(file: EncodedFileDescriptor): void {
    const add = (scope: string, name: string): string => {
      const fullName = scope ? `${scope}.${name}` : name;
      this.symbols.set(fullName, file);
      return fullName;
    };
    const addExtension = (scope: string, extension: FieldDescriptorProto): void => {
      add(scope, extension.name);
      const extendee = extension.extendee.replace(/^\./, '');
      const byNumber = this.extensions.get(extendee) ?? new Map<number, EncodedFileDescriptor>();
      this.extensions.set(extendee, byNumber.set(extension.number, file));
    };
    // An enum's values are siblings of the enum, not its children.
    const addEnum = (scope: string, enumType: EnumDescriptorProto): void => {
      add(scope, enumType.name);
      for (const value of enumType.value) add(scope, value.name);
    };
    const addMessage = (scope: string, message: DescriptorProto): void => {
      const name = add(scope, message.name);
      for (const field of message.field) add(name, field.name);
      for (const oneof of message.oneofDecl) add(name, oneof.name);
      for (const nested of message.nestedType) addMessage(name, nested);
      for (const enumType of message.enumType) addEnum(name, enumType);
      for (const extension of message.extension) addExtension(name, extension);
    };
    const { package: scope } = file.proto;
    for (const message of file.proto.messageType) addMessage(scope, message);
    for (const enumType of file.proto.enumType) addEnum(scope, enumType);
    for (const extension of file.proto.extension) addExtension(scope, extension);
    for (const service of file.proto.service) {
      const name = add(scope, service.name);
      this.services.push(name);
      for (const method of service.method) add(name, method.name);
    }
  }
}
