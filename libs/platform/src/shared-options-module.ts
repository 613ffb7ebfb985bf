import type { DynamicModule, InjectionToken, ModuleMetadata, Provider, Type } from '@nestjs/common';

/**
 * A module that only holds a composite module's options under `token`, made by
 * `providers` (a value, or asyncOptionsProviders for a forRootAsync source that
 * needs `imports`). Each part of the composite (its sub-modules' forRootAsync)
 * imports this same object and injects `token`: the options are made once, and
 * the source's own imports are in scope where they are made.
 * @param module the class Nest names the holder by (one per composite).
 * @internal
 */
export function sharedOptionsModule(
  module: Type,
  token: InjectionToken,
  providers: Provider[],
  imports: NonNullable<ModuleMetadata['imports']> = [],
): DynamicModule {
  return { module, imports, providers, exports: [token] };
}
