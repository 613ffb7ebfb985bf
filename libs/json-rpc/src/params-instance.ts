import { plainToInstance, TransformationType } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { classTransformerStorage } from './class-transformer-storage';
import { JsonRpcError } from './json-rpc-error';

type Dto = new () => object;

/**
 * How a DTO's params become an instance: `define` builds it here, following
 * @Type to nested DTOs; `transform` hands it to class-transformer, for DTOs
 * (or nested DTOs) that use what only it implements (@Transform, @Expose,
 * @Exclude, discriminators, @Type of something that is not a validated class).
 */
type Strategy = 'define' | 'transform';

const strategies = new WeakMap<Dto, Strategy>();

/**
 * The DTO instance for named params. class-transformer is avoided where it is
 * not needed: it deep-copies opaque payloads such as tools.call `arguments`
 * (a cost per call that grows with them), silently drops members named
 * `constructor` or `__proto__` at any depth, and throws on a plain object
 * whose `constructor` member is data (a column named "constructor"). Here,
 * properties are defined, not assigned, so no key reaches a setter; only the
 * objects that become DTO instances are looked into, where a member named like
 * an Object.prototype property (`constructor`, `toString`, ...) would shadow
 * what class-validator relies on and is refused by name; values that are not
 * DTOs (arguments, predicates, column mappings) are passed on as sent.
 */
export function toParamsInstance(dto: Dto, named: Record<string, unknown>): object {
  if (strategyOf(dto) === 'transform') return plainToInstance(dto, named);
  return defineInstance(dto, named, '');
}

function defineInstance(dto: Dto, plain: Record<string, unknown>, path: string): object {
  const instance = new dto();
  for (const key of Object.keys(plain)) {
    const keyPath = path === '' ? key : `${path}.${key}`;
    if (key in Object.prototype) {
      throw JsonRpcError.invalidParams([
        { path: keyPath, constraints: { whitelistValidation: `property ${key} should not exist` } },
      ]);
    }
    const nested = nestedDtoOf(dto, key);
    const value = nested ? toNestedValue(nested, plain[key], keyPath) : plain[key];
    Object.defineProperty(instance, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return instance;
}

/** A nested DTO member: a plain object becomes an instance, an array's plain objects do; anything else is left for validation to refuse. */
function toNestedValue(dto: Dto, value: unknown, path: string): unknown {
  if (Array.isArray(value))
    return value.map((item, index) => (isPlainObject(item) ? defineInstance(dto, item, `${path}[${index}]`) : item));
  return isPlainObject(value) ? defineInstance(dto, value, path) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function nestedDtoOf(dto: Dto, property: string): Dto | undefined {
  return classTransformerStorage.findTypeMetadata(dto, property)?.typeFunction() as Dto | undefined;
}

function strategyOf(dto: Dto, visiting = new Set<Dto>()): Strategy {
  const known = strategies.get(dto);
  if (known) return known;
  if (visiting.has(dto)) return 'define'; // a cycle: decided by the other members
  visiting.add(dto);
  const strategy = needsTransformer(dto, visiting) ? 'transform' : 'define';
  visiting.delete(dto);
  strategies.set(dto, strategy);
  return strategy;
}

function needsTransformer(dto: Dto, visiting: Set<Dto>): boolean {
  if (
    classTransformerStorage.getStrategy(dto) !== 'none' ||
    classTransformerStorage.getExposedMetadatas(dto).length > 0 ||
    classTransformerStorage.getExcludedMetadatas(dto).length > 0
  ) {
    return true;
  }
  for (const property of validatedProperties(dto)) {
    if (classTransformerStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0)
      return true;
    const type = classTransformerStorage.findTypeMetadata(dto, property) as
      { typeFunction: () => unknown; options?: { discriminator?: unknown } } | undefined;
    if (!type) continue;
    if (type.options?.discriminator) return true;
    const nested = type.typeFunction();
    if (typeof nested !== 'function' || validatedProperties(nested as Dto).size === 0) return true;
    if (strategyOf(nested as Dto, visiting) === 'transform') return true;
  }
  return false;
}

function validatedProperties(dto: Dto): Set<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
}
