import { JsonSchemaProperty } from '@s2sp/json-rpc';
import { registerDecorator, type ValidationArguments, type ValidationOptions } from 'class-validator';

/** An object whose values are all strings and whose keys are non-empty, e.g. a column_mapping. */
export function IsStringRecord(options?: ValidationOptions): PropertyDecorator {
  const describe = JsonSchemaProperty({
    type: 'object',
    propertyNames: { minLength: 1 },
    additionalProperties: { type: 'string' },
  });
  return (target, propertyName) => {
    describe(target, propertyName);
    registerDecorator({
      name: 'isStringRecord',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) =>
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.entries(value).every(([key, item]) => key !== '' && typeof item === 'string'),
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'value'} must be an object mapping non-empty names to strings`,
      },
    });
  };
}
