import type { Provider, Type } from '@nestjs/common';

/**
 * The provider of a seam a module lets its user replace: the user's class
 * (instantiated by Nest, with its own injections), the user's instance, or
 * the module's default class when nothing was given.
 */
export function classOrValueProvider<T>(
  token: symbol | string,
  given: Type<T> | T | undefined,
  fallback: Type<T>,
): Provider {
  if (given === undefined) return { provide: token, useClass: fallback };
  return typeof given === 'function'
    ? { provide: token, useClass: given as Type<T> }
    : { provide: token, useValue: given };
}
