import type {
  DynamicModule,
  InjectionToken,
  ModuleMetadata,
  OptionalFactoryDependency,
  Provider,
  Type,
} from '@nestjs/common';

/**
 * A provider that makes a module's options: what `useClass` and `useExisting` name.
 * @public
 */
export interface ModuleOptionsFactory<T> {
  createOptions(): T | Promise<T>;
}

/**
 * The three ways Nest's own modules take their options at run time.
 * @public
 */
export type AsyncOptionsSource<T> =
  | { useFactory: (...args: any[]) => T | Promise<T>; inject?: Array<InjectionToken | OptionalFactoryDependency> }
  | { useClass: Type<ModuleOptionsFactory<T>> }
  | { useExisting: InjectionToken };

/**
 * What a module's `forRootAsync` takes: where its options come from, and the modules that source needs.
 * @public
 */
export type AsyncModuleOptions<T> = Pick<ModuleMetadata, 'imports'> & AsyncOptionsSource<T>;

/**
 * The providers that put a module's options under `token`, made by `source`
 * and passed through `resolve` (defaults and validation).
 * @param moduleName names the module in the error for a source that is none of the three.
 * @internal
 */
export function asyncOptionsProviders<T, R>(
  moduleName: string,
  token: InjectionToken,
  source: AsyncOptionsSource<T>,
  resolve: (options: T) => R,
): Provider[] {
  const fromFactory = async (factory: ModuleOptionsFactory<T>): Promise<R> => resolve(await factory.createOptions());
  if ('useFactory' in source && typeof source.useFactory === 'function') {
    return [
      {
        provide: token,
        inject: source.inject ?? [],
        useFactory: async (...args: unknown[]) => resolve(await source.useFactory(...args)),
      },
    ];
  }
  if ('useClass' in source && typeof source.useClass === 'function') {
    return [
      { provide: source.useClass, useClass: source.useClass },
      { provide: token, inject: [source.useClass], useFactory: fromFactory },
    ];
  }
  if ('useExisting' in source && source.useExisting !== undefined) {
    return [{ provide: token, inject: [source.useExisting], useFactory: fromFactory }];
  }
  throw new TypeError(`${moduleName}.forRootAsync needs one of useFactory, useClass or useExisting.`);
}

/**
 * How a composite module (the gateway, the agents) hands each module it imports its part of one
 * configuration: `fromConfig(configured, make)` is a forRootAsync source whose options `make` takes
 * from the configuration `configured` provides under `token`.
 * @internal
 */
export function configSource<C>(token: InjectionToken) {
  return <T>(configured: DynamicModule, make: (config: C) => T): AsyncModuleOptions<T> => ({
    imports: [configured],
    inject: [token],
    useFactory: make,
  });
}
