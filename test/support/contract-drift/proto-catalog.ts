import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PROTO_FILES } from '@s2sp/contracts';
import { PROTO_ROOT } from '@s2sp/contracts/internal';
import { GOOGLE_PROTOS_DIR } from '../../../libs/contracts/src/proto-loader-options';

/*
 * The contract's protos as plain data, read through protobufjs (the parser
 * @grpc/proto-loader uses, as any client loading the .proto files would).
 */

/** How a proto3 field behaves when the sender leaves it out. */
export type ProtoPresence =
  /** Marked [(s2sp.v1.required) = true]: the receiving service rejects the message without it. */
  | 'required'
  /** A message field or a oneof member: it can be unset, and the receiver can tell. */
  | 'explicit'
  /** A scalar, enum, list or map: an unset field reads as its default ('' / 0 / false / [] / {}). */
  | 'implicit';

export interface ProtoField {
  name: string;
  /** A scalar's proto type name (string, uint64, ...) or the full name of an enum or message, without leading dot. */
  type: string;
  kind: 'scalar' | 'enum' | 'message';
  repeated: boolean;
  /** For map fields, the key's scalar type; the value is described by type/kind. */
  mapKey?: string;
  presence: ProtoPresence;
}

export interface ProtoMessage {
  fullName: string;
  fields: ProtoField[];
}

export interface ProtoCatalog {
  message(fullName: string): ProtoMessage;
  /** The value names of an enum, e.g. ['CANCEL_MODE_UNSPECIFIED', 'CANCEL_MODE_SOFT', ...]. */
  enumValues(fullName: string): string[];
}

/** The names a field option marking a required field has in protobufjs, depending on how the .proto spells it. */
const REQUIRED_OPTION_NAMES = ['(required)', '(s2sp.v1.required)', '(.s2sp.v1.required)'];

// Only the parts of protobufjs' reflection API read here (protobufjs is @grpc/proto-loader's dependency, not ours).
interface PbField {
  name: string;
  type: string;
  repeated: boolean;
  map?: boolean;
  keyType?: string;
  partOf: unknown;
  options?: Record<string, unknown>;
  resolvedType: { fullName: string; values?: Record<string, number> } | null;
}
interface PbType {
  fullName: string;
  fieldsArray: PbField[];
}
interface PbEnum {
  values: Record<string, number>;
}
interface PbRoot {
  resolvePath: (origin: string, target: string) => string | null;
  loadSync(files: string[], options: { keepCase: boolean }): PbRoot;
  resolveAll(): PbRoot;
  lookupType(path: string): PbType;
  lookupEnum(path: string): PbEnum;
}
interface Protobufjs {
  Root: new () => PbRoot;
}

function protobufjs(): Protobufjs {
  const fromProtoLoader = createRequire(join(dirname(require.resolve('@grpc/proto-loader')), 'index.js'));
  return fromProtoLoader('protobufjs') as Protobufjs;
}

/**
 * Loads the given proto files (default: the contract's files, PROTO_FILES)
 * with imports resolved from includeDirs (default: the proto root and
 * protobufjs' own google/protobuf files).
 */
export function loadProtoCatalog(
  files: readonly string[] = PROTO_FILES,
  includeDirs: readonly string[] = [PROTO_ROOT, GOOGLE_PROTOS_DIR],
): ProtoCatalog {
  const root = new (protobufjs().Root)();
  root.resolvePath = (_origin, target) =>
    includeDirs.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
  root.loadSync([...files], { keepCase: true }).resolveAll();
  return {
    message(fullName) {
      const type = root.lookupType(fullName);
      return { fullName: withoutDot(type.fullName), fields: type.fieldsArray.map(describeField) };
    },
    enumValues(fullName) {
      return Object.keys(root.lookupEnum(fullName).values);
    },
  };
}

function describeField(field: PbField): ProtoField {
  const resolved = field.resolvedType;
  const kind = !resolved ? 'scalar' : resolved.values ? 'enum' : 'message';
  const required = REQUIRED_OPTION_NAMES.some((name) => field.options?.[name] === true);
  const explicit = !field.repeated && !field.map && (kind === 'message' || field.partOf !== null);
  return {
    name: field.name,
    type: resolved ? withoutDot(resolved.fullName) : field.type,
    kind,
    repeated: field.repeated,
    ...(field.map ? { mapKey: field.keyType } : {}),
    presence: required ? 'required' : explicit ? 'explicit' : 'implicit',
  };
}

function withoutDot(name: string): string {
  return name.startsWith('.') ? name.slice(1) : name;
}
