import type { FactoryProvider, Provider, Type } from '@nestjs/common';

/**
 * How Nest makes a seam given as a class (instantiated by Nest, with its own injections) or as an instance.
 * @internal
 */
export function classOrValue<T>(given: Type<T> | T): { useClass: Type<T> } | { useValue: T } {
  return typeof given === 'function' ? { useClass: given as Type<T> } : { useValue: given };
}

/**
 * The provider of a seam a module lets its user replace: the user's class
 * (instantiated by Nest, with its own injections), the user's instance, or
 * the module's default when nothing was given: a class, or a factory for a
 * default that depends on the configuration.
 * @internal
 */
export function classOrValueProvider<T>(
  token: symbol | string,
  given: Type<T> | T | undefined,
  fallback: Type<T> | Omit<FactoryProvider<T | Promise<T>>, 'provide'>,
): Provider {
  if (given !== undefined) return { provide: token, ...classOrValue(given) };
  return typeof fallback === 'function' ? { provide: token, useClass: fallback } : { provide: token, ...fallback };
}
