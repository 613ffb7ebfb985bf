import 'reflect-metadata';
import type { JsonSchema } from './json-schema';

const JSON_SCHEMA_PROPERTY_METADATA = 's2sp:json-rpc:json-schema-property';

/**
 * Declares the JSON Schema of a validated DTO property where the OpenRPC
 * document cannot derive it: a custom class-validator constraint says nothing
 * the generator understands. The declared keywords are laid over those the
 * built-in validators imply (the declared ones win); whether the property is
 * required is still decided by the validators (@IsOptional, @IsDefined).
 *
 * Put it on the property, or apply it inside a custom validator's decorator
 * so that every property checked by that validator is described the same way.
 * It must describe what the validator accepts: the document promises callers
 * that a value matching it is valid.
 * @public
 */
export function JsonSchemaProperty(schema: JsonSchema): PropertyDecorator {
  const declared = Object.freeze(structuredClone(schema));
  return (target, propertyKey) => {
    Reflect.defineMetadata(JSON_SCHEMA_PROPERTY_METADATA, declared, target, propertyKey);
  };
}

/** The schema {@link JsonSchemaProperty} declared for `property` of `cls` (or of a class it extends). */
export function declaredJsonSchema(cls: Function, property: string): Readonly<JsonSchema> | undefined {
  return Reflect.getMetadata(JSON_SCHEMA_PROPERTY_METADATA, cls.prototype, property) as JsonSchema | undefined;
}
