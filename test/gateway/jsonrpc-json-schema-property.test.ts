// @JsonSchemaProperty: how a DTO property checked by a custom validator gets a
// type in the OpenRPC document, which cannot derive one from the constraint.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { IsOptional, IsString, ValidateBy, validateSync } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { JsonSchemaProperty, type JsonSchema } from '@s2sp/json-rpc';
import { classToJsonSchema, SchemaComponents } from '../../libs/json-rpc/src/openrpc/class-validator-json-schema';
import { IsStringRecord } from '../../libs/gateway/src/methods/dto/validators/is-string-record';

const IsEven = () =>
  ValidateBy({
    name: 'isEven',
    validator: { validate: (value) => Number.isInteger(value) && (value as number) % 2 === 0 },
  });

class Undeclared {
  @IsEven()
  count!: number;
}

class Declared {
  @IsEven()
  @JsonSchemaProperty({ type: 'integer', description: 'an even number' })
  count!: number;

  @IsOptional()
  @IsString()
  @JsonSchemaProperty({ format: 'hostname', description: 'a DNS name' })
  host?: string;
}

class Target {
  @IsString()
  id!: string;
}

class Referencing {
  @IsEven()
  @JsonSchemaProperty({ $ref: '#/components/schemas/Target', type: 'object' })
  target!: unknown;
}

class Mapping {
  @IsOptional()
  @IsStringRecord()
  column_mapping?: Record<string, string>;
}

class ExtendedMapping extends Mapping {
  @IsString()
  name!: string;
}

const schemaOf = (cls: new () => object): JsonSchema => classToJsonSchema(cls, new SchemaComponents());

describe('@JsonSchemaProperty', () => {
  test('without it, a property checked only by a custom validator has no type in the document', () => {
    assert.deepEqual(schemaOf(Undeclared).properties, { count: {} });
  });

  test('the declared keywords describe the property; requiredness still follows the validators', () => {
    const schema = schemaOf(Declared);
    assert.deepEqual(schema.properties?.count, { type: 'integer', description: 'an even number' });
    assert.deepEqual(schema.required, ['count']);
  });

  test('declared keywords are laid over those the built-in validators imply', () => {
    assert.deepEqual(schemaOf(Declared).properties?.host, {
      type: 'string',
      format: 'hostname',
      description: 'a DNS name',
    });
  });

  test('a declared $ref stands alone: keywords beside it would be ignored by validators of the document', () => {
    const components = new SchemaComponents();
    components.refFor(Target);
    assert.deepEqual(classToJsonSchema(Referencing, components).properties?.target, {
      $ref: '#/components/schemas/Target',
    });
  });

  test('the generated schema is a copy: changing it does not change what the next document says', () => {
    schemaOf(Declared).properties!.count.description = 'changed';
    assert.deepEqual(schemaOf(Declared).properties?.count, { type: 'integer', description: 'an even number' });
  });

  test('a custom validator can declare it for every property it checks (IsStringRecord), subclasses included', () => {
    const expected = { type: 'object', propertyNames: { minLength: 1 }, additionalProperties: { type: 'string' } };
    assert.deepEqual(schemaOf(Mapping), {
      type: 'object',
      properties: { column_mapping: expected },
      additionalProperties: false,
    });
    assert.deepEqual(schemaOf(ExtendedMapping).properties?.column_mapping, expected);
  });

  test("IsStringRecord's declared schema says what it accepts and refuses", () => {
    const errors = (column_mapping: unknown) => validateSync(plainToInstance(Mapping, { column_mapping })).length;
    assert.equal(errors({ a: 'b', c: 'd' }), 0);
    assert.equal(errors({}), 0);
    assert.equal(errors({ a: 1 }), 1, 'additionalProperties: string');
    assert.equal(errors({ '': 'b' }), 1, 'propertyNames: minLength 1');
    assert.equal(errors(['b']), 1, 'type: object');
    assert.equal(errors('{"a":"b"}'), 1, 'type: object');
  });
});
