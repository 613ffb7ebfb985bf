/** What the engine reads of class-transformer's decorator metadata (@Type, @Transform, @Expose, @Exclude). */
export interface ClassTransformerStorage {
  findTypeMetadata(
    target: Function,
    propertyName: string,
  ): { typeFunction: (options?: unknown) => Function } | undefined;
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): unknown[];
  getExposedMetadatas(target: Function): unknown[];
  getExcludedMetadatas(target: Function): unknown[];
  getStrategy(target: Function): string;
}

// class-transformer keeps its decorators' metadata in a storage it does not re-export from its root.
export const classTransformerStorage = (
  require('class-transformer/cjs/storage') as { defaultMetadataStorage: ClassTransformerStorage }
).defaultMetadataStorage;
