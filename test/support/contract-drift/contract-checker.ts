import type { ProtoCatalog, ProtoField, ProtoPresence } from './proto-catalog';

/*
 * Compares a JSON Schema (a JSON-RPC method's params or result as the OpenRPC
 * document publishes them, or an MCP tool's input/output schema) with the
 * proto message it is transcoded to or from: member names, types and
 * requiredness, recursing into nested messages. Every deliberate difference
 * must be declared, with its reason, in the correspondence's rules; a
 * declared difference that no longer exists is reported too, so the table
 * cannot go stale.
 */

/** The parts of JSON Schema compared here; OpenRPC's draft-07 and zod's 2020-12 output both fit. */
export interface Schema {
  type?: string;
  $ref?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  additionalProperties?: boolean | Schema;
  enum?: unknown[];
  minimum?: number;
  maximum?: number;
  format?: string;
}

/**
 * input: the JSON side is validated input that travels as the proto message
 * (JSON-RPC params, an MCP tool's arguments or the tool answer the agents
 * read), so both sides must demand the same fields and integers must fit.
 * output: the gateway derives the JSON side from the proto message it
 * receives (JSON-RPC results).
 */
export type Direction = 'input' | 'output';

/** Deliberate differences between one proto message and the JSON objects paired with it. Every entry is a reason. */
export interface MessageRules {
  /** JSON member -> the proto field it carries, a dotted path when the gateway flattens a nested message (trace_id -> trace.trace_id). */
  renamed?: Record<string, { proto: string; reason: string }>;
  /** Proto fields with no JSON member. */
  protoOnly?: Record<string, string>;
  /** JSON members with no proto field. */
  jsonOnly?: Record<string, string>;
  /** JSON members whose requiredness deliberately differs from the proto field's. */
  requiredness?: Record<string, string>;
  /** JSON members whose type deliberately differs from the proto field's (their type is then not compared, nor what is nested in it). */
  type?: Record<string, string>;
}

export interface Correspondence {
  /** Where the JSON side is published, e.g. "agent.submitTask params" or "MCP resource tool input". */
  name: string;
  direction: Direction;
  /** Full name of the proto message, e.g. s2sp.v1.AgentTask. */
  proto: string;
  schema: Schema;
  /** Schemas that $ref "#/components/schemas/<name>" points at (the OpenRPC document's components). */
  components?: Record<string, Schema>;
  /** Rules per proto message reached from this pair (its own message included), keyed by full name. */
  rules?: Record<string, MessageRules>;
}

export type DisagreementKind = 'name' | 'type' | 'required' | 'stale-exception';

export interface Disagreement {
  kind: DisagreementKind;
  /** The JSON member (or proto field) it concerns, e.g. "agent.submitTask params: plan[].resource_call.mode". */
  at: string;
  detail: string;
}

type RuleKind = keyof MessageRules;

const STRUCT = 'google.protobuf.Struct';
const TIMESTAMP = 'google.protobuf.Timestamp';

/** Proto scalar -> the JSON type the gateway uses for it, with the integer range the proto type can hold. */
const SCALARS: Record<string, { json: string; min?: number; max?: number }> = {
  string: { json: 'string' },
  bytes: { json: 'string' },
  bool: { json: 'boolean' },
  double: { json: 'number' },
  float: { json: 'number' },
  int32: { json: 'integer', min: -(2 ** 31), max: 2 ** 31 - 1 },
  sint32: { json: 'integer', min: -(2 ** 31), max: 2 ** 31 - 1 },
  sfixed32: { json: 'integer', min: -(2 ** 31), max: 2 ** 31 - 1 },
  uint32: { json: 'integer', min: 0, max: 2 ** 32 - 1 },
  fixed32: { json: 'integer', min: 0, max: 2 ** 32 - 1 },
  int64: { json: 'integer', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  sint64: { json: 'integer', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  sfixed64: { json: 'integer', min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER },
  uint64: { json: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
  fixed64: { json: 'integer', min: 0, max: Number.MAX_SAFE_INTEGER },
};

/** Every disagreement between the pair, in walk order; [] when they agree. */
export function checkCorrespondence(pair: Correspondence, catalog: ProtoCatalog): Disagreement[] {
  return new PairCheck(pair, catalog).run();
}

class PairCheck {
  private readonly found: Disagreement[] = [];
  private readonly usedRules = new Set<string>();

  constructor(
    private readonly pair: Correspondence,
    private readonly catalog: ProtoCatalog,
  ) {}

  run(): Disagreement[] {
    this.compareMessage(this.pair.schema, this.pair.proto, '');
    for (const [message, rules] of Object.entries(this.pair.rules ?? {})) {
      for (const kind of Object.keys(rules) as RuleKind[]) {
        for (const key of Object.keys(rules[kind] ?? {})) {
          if (!this.usedRules.has(ruleId(message, kind, key))) {
            this.report(
              'stale-exception',
              message,
              `rules.${kind}.${key} is declared, but the difference it excuses does not occur`,
            );
          }
        }
      }
    }
    return this.found;
  }

  private report(kind: DisagreementKind, path: string, detail: string): void {
    this.found.push({ kind, at: path ? `${this.pair.name}: ${path}` : this.pair.name, detail });
  }

  /** The rule's reason when declared (and marks it used), else undefined. */
  private excuse(message: string, kind: RuleKind, key: string): string | undefined {
    const entry = this.pair.rules?.[message]?.[kind]?.[key];
    if (entry === undefined) return undefined;
    this.usedRules.add(ruleId(message, kind, key));
    return typeof entry === 'string' ? entry : entry.reason;
  }

  private resolve(schema: Schema): Schema {
    const seen = new Set<string>();
    let current = schema;
    while (current.$ref) {
      const name = /^#\/components\/schemas\/(.+)$/.exec(current.$ref)?.[1];
      const target = name === undefined ? undefined : this.pair.components?.[name];
      if (!name || !target || seen.has(name)) throw new Error(`${this.pair.name}: cannot resolve $ref ${current.$ref}`);
      seen.add(name);
      current = target;
    }
    return current;
  }

  private compareMessage(rawSchema: Schema, messageName: string, path: string): void {
    const schema = this.resolve(rawSchema);
    if (schema.type !== 'object') {
      this.report(
        'type',
        path || '(root)',
        `is ${describeType(schema)}, but proto message ${messageName} needs an object`,
      );
      return;
    }
    const message = this.catalog.message(messageName);
    const required = new Set(schema.required ?? []);
    const covered = new Set<string>();
    const renamed = this.pair.rules?.[messageName]?.renamed ?? {};

    for (const [member, memberSchema] of Object.entries(schema.properties ?? {})) {
      const memberPath = join(path, member);
      const rename = renamed[member];
      if (rename) this.excuse(messageName, 'renamed', member);
      const protoPath = rename?.proto ?? member;
      const target = this.followPath(messageName, protoPath);
      if (!target) {
        if (this.excuse(messageName, 'jsonOnly', member) === undefined) {
          this.report('name', memberPath, `has no proto field ${messageName}.${protoPath}`);
        }
        continue;
      }
      covered.add(protoPath.split('.')[0]);
      this.compareField(
        messageName,
        member,
        target.field,
        target.presence,
        memberSchema,
        required.has(member),
        memberPath,
      );
    }

    for (const field of message.fields) {
      if (covered.has(field.name) || this.excuse(messageName, 'protoOnly', field.name) !== undefined) continue;
      this.report(
        'name',
        path ? `${path} (${messageName}.${field.name})` : `(${messageName}.${field.name})`,
        `proto field ${messageName}.${field.name} has no JSON member`,
      );
    }
  }

  /** The field a (dotted) proto path ends at, with the presence of the whole path: optional if any hop is. */
  private followPath(
    messageName: string,
    protoPath: string,
  ): { field: ProtoField; presence: ProtoPresence } | undefined {
    let message = this.catalog.message(messageName);
    let presence: ProtoPresence = 'required';
    const segments = protoPath.split('.');
    for (const [index, segment] of segments.entries()) {
      const field = message.fields.find((candidate) => candidate.name === segment);
      if (!field) return undefined;
      presence = weaker(presence, field.presence);
      if (index === segments.length - 1) return { field, presence };
      if (field.kind !== 'message' || field.repeated || field.mapKey) return undefined;
      message = this.catalog.message(field.type);
    }
    return undefined;
  }

  private compareField(
    messageName: string,
    member: string,
    field: ProtoField,
    presence: ProtoPresence,
    schema: Schema,
    jsonRequired: boolean,
    path: string,
  ): void {
    const requirednessProblem = this.requirednessProblem(presence, jsonRequired);
    if (requirednessProblem && this.excuse(messageName, 'requiredness', member) === undefined) {
      this.report('required', path, requirednessProblem);
    }
    const typeProblems = this.typeProblems(field, schema, path, false);
    if (typeProblems.length > 0) {
      if (this.excuse(messageName, 'type', member) === undefined)
        for (const problem of typeProblems) this.report('type', path, problem);
    } else if (this.pair.rules?.[messageName]?.type?.[member] === undefined) {
      // The field's own type agrees: now compare the messages nested in it.
      this.typeProblems(field, schema, path, true);
    }
  }

  private requirednessProblem(presence: ProtoPresence, jsonRequired: boolean): string | undefined {
    const protoRequired = presence === 'required';
    if (this.pair.direction === 'input') {
      if (jsonRequired && !protoRequired)
        return 'is required here, but the proto field is optional: the receiver accepts a message without it';
      if (!jsonRequired && protoRequired)
        return 'is optional here, but the proto field is required: the receiver rejects a message without it';
      return undefined;
    }
    if (protoRequired && !jsonRequired) return 'is optional here, but the proto field is required: it is always set';
    if (jsonRequired && presence === 'explicit') return 'is required here, but the proto field can be unset';
    return undefined;
  }

  /**
   * What is wrong with the JSON type of a field (lists and maps included).
   * Nested messages are compared (and report their own problems) only when
   * `recurse` is set, once the field's own type is known to agree.
   */
  private typeProblems(field: ProtoField, rawSchema: Schema, path: string, recurse: boolean): string[] {
    const schema = this.resolve(rawSchema);
    if (field.mapKey) {
      if (schema.type !== 'object')
        return [`is ${describeType(schema)}, but map<${field.mapKey}, ${field.type}> needs an object`];
      const values = schema.additionalProperties;
      if (typeof values !== 'object')
        return [`declares no value type, but map<${field.mapKey}, ${field.type}> needs its values described`];
      return this.elementProblems(field, values, `${path}{}`, recurse);
    }
    if (field.repeated) {
      if (schema.type !== 'array') return [`is ${describeType(schema)}, but repeated ${field.type} needs an array`];
      if (!schema.items) return [`declares no item type, but repeated ${field.type} needs its items described`];
      return this.elementProblems(field, schema.items, `${path}[]`, recurse);
    }
    return this.elementProblems(field, schema, path, recurse);
  }

  private elementProblems(field: ProtoField, rawSchema: Schema, path: string, recurse: boolean): string[] {
    const schema = this.resolve(rawSchema);
    if (field.kind === 'message') {
      if (field.type === TIMESTAMP) {
        return schema.type === 'string' && schema.format === 'date-time'
          ? []
          : [`is ${describeType(schema)}, but a Timestamp is an ISO-8601 date-time string`];
      }
      if (schema.type !== 'object')
        return [`is ${describeType(schema)}, but proto message ${field.type} needs an object`];
      if (recurse && field.type !== STRUCT) this.compareMessage(schema, field.type, path);
      return [];
    }
    if (field.kind === 'enum') return this.enumProblems(field.type, schema);
    const scalar = SCALARS[field.type];
    if (!scalar) return [`has proto type ${field.type}, which this checker does not map`];
    if (schema.type !== scalar.json)
      return [`is ${describeType(schema)}, but proto ${field.type} needs ${scalar.json}`];
    // Ranges matter where JSON input is encoded into the proto field; an output only ever holds what the field held.
    if (this.pair.direction === 'output') return [];
    const problems: string[] = [];
    const unsigned = scalar.min === 0;
    if (
      scalar.min !== undefined &&
      ((unsigned && schema.minimum === undefined) || (schema.minimum !== undefined && schema.minimum < scalar.min))
    ) {
      problems.push(`allows values below ${scalar.min}, which proto ${field.type} cannot hold`);
    }
    if (scalar.max !== undefined && schema.maximum !== undefined && schema.maximum > scalar.max) {
      problems.push(`allows values up to ${schema.maximum}, above what proto ${field.type} holds (${scalar.max})`);
    }
    return problems;
  }

  /**
   * Enums cross the JSON-RPC boundary as the value names in lower case
   * without the enum's prefix (CANCEL_MODE_SOFT -> "soft"). JSON must offer
   * every value but UNSPECIFIED and nothing else; a result must also allow
   * "unspecified", which is what a value unknown to the gateway becomes.
   */
  private enumProblems(enumName: string, schema: Schema): string[] {
    if (schema.type !== 'string' || !Array.isArray(schema.enum))
      return [`is ${describeType(schema)}, but enum ${enumName} needs a string enum`];
    const names = this.catalog.enumValues(enumName);
    const unspecified = names.find((name) => name.endsWith('_UNSPECIFIED'));
    const prefix = unspecified ? unspecified.slice(0, -'UNSPECIFIED'.length) : '';
    const protoValues = names.map((name) => name.slice(prefix.length).toLowerCase());
    const jsonValues = schema.enum.map(String);
    const problems: string[] = [];
    const unknown = jsonValues.filter((value) => !protoValues.includes(value));
    if (unknown.length > 0) problems.push(`offers ${unknown.join(', ')}, not values of enum ${enumName}`);
    const missing = protoValues.filter((value) => value !== 'unspecified' && !jsonValues.includes(value));
    if (missing.length > 0) problems.push(`lacks ${missing.join(', ')} of enum ${enumName}`);
    if (this.pair.direction === 'output' && !jsonValues.includes('unspecified')) {
      problems.push(`lacks "unspecified", which a value of enum ${enumName} unknown to the gateway becomes`);
    }
    return problems;
  }
}

function ruleId(message: string, kind: RuleKind, key: string): string {
  return `${message}\0${kind}\0${key}`;
}

function join(path: string, member: string): string {
  return path ? `${path}.${member}` : member;
}

const PRESENCE_ORDER: ProtoPresence[] = ['required', 'implicit', 'explicit'];

/** The presence of a field reached through another: as optional as the more optional of the two. */
function weaker(a: ProtoPresence, b: ProtoPresence): ProtoPresence {
  return PRESENCE_ORDER[Math.max(PRESENCE_ORDER.indexOf(a), PRESENCE_ORDER.indexOf(b))];
}

function describeType(schema: Schema): string {
  if (schema.type === undefined) return 'untyped (no JSON Schema type)';
  return schema.format ? `${schema.type} (${schema.format})` : schema.type;
}
