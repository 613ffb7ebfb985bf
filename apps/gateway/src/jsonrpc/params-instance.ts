import { plainToInstance } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';

type Dto = new () => object;

interface TransformerMetadataStorage {
  findTypeMetadata(target: Function, propertyName: string): unknown;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): unknown[];
  getExposedMetadatas(target: Function): unknown[];
  getExcludedMetadatas(target: Function): unknown[];
  getStrategy(target: Function): string;
}
// class-transformer keeps its decorators' metadata in a storage it does not re-export from its root.
const transformerStorage = (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerMetadataStorage })
  .defaultMetadataStorage;
const PLAIN_TO_CLASS = 0; // TransformationType.PLAIN_TO_CLASS

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
      transformerStorage.getStrategy(dto) !== 'none' ||
      transformerStorage.getExposedMetadatas(dto).length > 0 ||
      transformerStorage.getExcludedMetadatas(dto).length > 0 ||
      [...properties].some(
        (property) =>
          transformerStorage.findTypeMetadata(dto, property) !== undefined ||
          transformerStorage.findTransformMetadatas(dto, property, PLAIN_TO_CLASS).length > 0,
      );
    usesTransformer.set(dto, answer);
  }
  return answer;
}
