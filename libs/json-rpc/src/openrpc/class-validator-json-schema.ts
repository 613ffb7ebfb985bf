import 'reflect-metadata';
import { IS_ISO8601, IS_UUID, ValidationTypes, getMetadataStorage, type MetadataStorage } from 'class-validator';
import { classTransformerStorage } from '../class-transformer-storage';
import type { JsonSchema } from './json-schema';
import { declaredJsonSchema } from './json-schema-property.decorator';

type ValidationMetadata = ReturnType<MetadataStorage['getTargetValidationMetadatas']>[number];

type Constructor = new (...args: any[]) => object;

/** Schemas of nested DTO classes, referenced as #/components/schemas/<name>. */
export class SchemaComponents {
  readonly schemas: Record<string, JsonSchema> = {};
  private readonly names = new Map<Function, string>();

  /** $ref to the schema of cls, converting it (once) on first use. */
  refFor(cls: Constructor): JsonSchema {
    let name = this.names.get(cls);
    if (!name) {
      name = this.uniqueName(cls.name || 'Anonymous');
      this.names.set(cls, name);
      this.schemas[name] = {};
      this.schemas[name] = classToJsonSchema(cls, this);
    }
    return { $ref: `#/components/schemas/${name}` };
  }

  private uniqueName(base: string): string {
    let name = base;
    for (let n = 2; name in this.schemas; n++) name = `${base}_${n}`;
    return name;
  }
}

export interface PropertySchema {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/**
 * Object schema of a class-validator DTO, derived from the same metadata that
 * validate() uses, plus what @JsonSchemaProperty declares for a property. Properties are in declaration order; additionalProperties is
 * false because params are validated with forbidNonWhitelisted.
 */
export function classToJsonSchema(cls: Constructor, components: SchemaComponents): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const property of dtoProperties(cls, components)) {
    properties[property.name] = property.schema;
    if (property.required) required.push(property.name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false };
}

/** One entry per validated property of cls, in declaration order. */
export function dtoProperties(cls: Constructor, components: SchemaComponents): PropertySchema[] {
  const metadatas = getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false);
  const byProperty = getMetadataStorage().groupByPropertyName(metadatas);
  return Object.entries(byProperty).map(([name, list]) => propertySchema(cls, name, list, components));
}

function propertySchema(
  cls: Constructor,
  name: string,
  list: ValidationMetadata[],
  components: SchemaComponents,
): PropertySchema {
  const own: JsonSchema = {};
  const items: JsonSchema = {};
  let optional = false;
  let defined = false;
  let nested = false;
  let notEmpty = false;

  for (const meta of list) {
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) optional = true;
    else if (meta.type === ValidationTypes.IS_DEFINED) defined = true;
    else if (meta.type === ValidationTypes.NESTED_VALIDATION) nested = true;
    else if (meta.type === ValidationTypes.CUSTOM_VALIDATION && meta.name) {
      if (meta.name === 'isNotEmpty') notEmpty = true;
      applyConstraint(meta.each ? items : own, meta.name, meta.constraints ?? []);
    }
  }

  const designType = Reflect.getMetadata('design:type', cls.prototype, name) as Function | undefined;
  const isArray = own.type === 'array' || designType === Array || list.some((meta) => meta.each);
  if (nested) {
    const nestedClass = classTransformerStorage.findTypeMetadata(cls, name)?.typeFunction() ?? designType;
    if (isDtoClass(nestedClass)) Object.assign(isArray ? items : own, components.refFor(nestedClass));
  }
  if (isArray) {
    own.type = 'array';
    if (Object.keys(items).length > 0) own.items = items;
  }
  const declared = declaredJsonSchema(cls, name);
  if (declared) Object.assign(own, structuredClone(declared));
  if (own.$ref) for (const key of Object.keys(own) as Array<keyof JsonSchema>) if (key !== '$ref') delete own[key];
  if (notEmpty && own.type === 'string' && own.minLength === undefined) own.minLength = 1;
  return { name, required: defined || !optional, schema: own };
}

/** Maps one built-in class-validator constraint onto JSON Schema keywords; unknown ones add nothing. */
function applyConstraint(schema: JsonSchema, name: string, constraints: unknown[]): void {
  const [first, second] = constraints;
  switch (name) {
    case 'isString':
      schema.type = 'string';
      break;
    case 'isInt':
      schema.type = 'integer';
      break;
    case 'isNumber':
      if (schema.type !== 'integer') schema.type = 'number';
      break;
    case 'isBoolean':
      schema.type = 'boolean';
      break;
    case 'isObject':
      schema.type = 'object';
      break;
    case 'isArray':
      schema.type = 'array';
      break;
    case 'isIn':
      setEnum(schema, first as unknown[]);
      break;
    case 'isEnum':
      setEnum(schema, second as unknown[]);
      break;
    case 'min':
      schema.minimum = first as number;
      break;
    case 'max':
      schema.maximum = first as number;
      break;
    case 'isPositive':
      schema.exclusiveMinimum = 0;
      break;
    case 'isNegative':
      schema.exclusiveMaximum = 0;
      break;
    case 'minLength':
      schema.minLength = first as number;
      break;
    case 'maxLength':
      schema.maxLength = first as number;
      break;
    case 'length':
      schema.minLength = first as number;
      if (typeof second === 'number') schema.maxLength = second;
      break;
    case 'arrayMinSize':
      schema.minItems = first as number;
      break;
    case 'arrayMaxSize':
      schema.maxItems = first as number;
      break;
    case 'arrayNotEmpty':
      schema.minItems = Math.max(schema.minItems ?? 0, 1);
      break;
    case 'isNotEmptyObject':
      schema.minProperties = 1;
      break;
    // These accept strings only, so the value's type is string as well.
    case 'matches':
      schema.type = 'string';
      schema.pattern = first instanceof RegExp ? first.source : String(first);
      break;
    // class-validator's own names: 'isUuid' and 'isIso8601', not the decorators' spelling.
    case IS_UUID:
      schema.type = 'string';
      schema.format = 'uuid';
      break;
    case 'isEmail':
      schema.type = 'string';
      schema.format = 'email';
      break;
    case 'isUrl':
      schema.type = 'string';
      schema.format = 'uri';
      break;
    case IS_ISO8601:
    case 'isDateString':
      schema.type = 'string';
      schema.format = 'date-time';
      break;
  }
}

/** isIn / isEnum: the allowed values, and their type when they all have the same JSON type (a value outside them is refused). */
function setEnum(schema: JsonSchema, values: unknown[]): void {
  schema.enum = [...values];
  const types = new Set(values.map((value) => (Number.isInteger(value) ? 'integer' : typeof value)));
  const [only] = types;
  if (types.size === 1 && schema.type === undefined && (only === 'string' || only === 'boolean' || only === 'integer'))
    schema.type = only;
}

function isDtoClass(value: unknown): value is Constructor {
  return (
    typeof value === 'function' &&
    value !== Object &&
    value !== Array &&
    value !== String &&
    value !== Number &&
    value !== Boolean
  );
}
