import { context, type Context } from '@opentelemetry/api';

/**
 * `fn` with `target` as the active context. When it already is (a handler
 * running inside the context of the request that started it), `fn` runs
 * directly: entering a context costs an AsyncLocalStorage run on every call.
 */
export function withinContext<T>(target: Context, fn: () => T): T {
  return target === context.active() ? fn() : context.with(target, fn);
}
