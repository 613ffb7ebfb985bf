import { plainToInstance, TransformationType } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { classTransformerStorage } from './class-transformer-storage';

type Dto = new () => object;

const usesTransformer = new WeakMap<Dto, boolean>();

/**
 * The DTO instance for named params. class-transformer runs only for DTOs that use
 * its decorators (@Type for nested DTOs, @Transform, @Expose/@Exclude): for the
 * others it would only deep-copy the params, which costs per call and grows with
 * opaque payloads such as tools.call `arguments`. Properties are defined, not
 * assigned, so no key reaches a setter (bindParams refuses `__proto__` before).
 */
export function toParamsInstance(dto: Dto, named: Record<string, unknown>): object {
  if (needsTransformer(dto)) return plainToInstance(dto, named);
  const instance = new dto();
  for (const key of Object.keys(named)) {
    Object.defineProperty(instance, key, { value: named[key], enumerable: true, writable: true, configurable: true });
  }
  return instance;
}

function needsTransformer(dto: Dto): boolean {
  let answer = usesTransformer.get(dto);
  if (answer === undefined) {
    const properties = new Set(getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false).map((m) => m.propertyName));
    answer =
      classTransformerStorage.getStrategy(dto) !== 'none' ||
      classTransformerStorage.getExposedMetadatas(dto).length > 0 ||
      classTransformerStorage.getExcludedMetadatas(dto).length > 0 ||
      [...properties].some(
        (property) =>
          classTransformerStorage.findTypeMetadata(dto, property) !== undefined ||
          classTransformerStorage.findTransformMetadatas(dto, property, TransformationType.PLAIN_TO_CLASS).length > 0,
      );
    usesTransformer.set(dto, answer);
  }
  return answer;
}
