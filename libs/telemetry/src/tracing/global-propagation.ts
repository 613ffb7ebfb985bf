import { context, propagation } from '@opentelemetry/api';
import type * as ContextAsyncHooks from '@opentelemetry/context-async-hooks';
import type * as OtelCore from '@opentelemetry/core';

/** Process-wide flag (Symbol.for: shared even by two copies of this module). */
const INSTALLED = Symbol.for('s2sp.telemetry.propagation-installed');

/**
 * Installs, once per process, the two process-wide pieces every app shares:
 * the AsyncLocalStorage context manager (the active span follows async calls)
 * and the W3C Trace Context propagator (`traceparent` / `tracestate`).
 * Tracer and meter providers stay per app (see Telemetry), so several apps in
 * one process keep their own `service.name` and their own metrics.
 *
 * Installed even when tracing is off: then no span is recorded, but an
 * incoming `traceparent` still reaches logs and outgoing calls unchanged.
 * If another context manager or propagator was registered first, it is kept.
 * Their packages load here, not with this module: an app that imports @s2sp/telemetry's types
 * and tokens without starting telemetry (a plain S2spModule app) does not load
 * `@opentelemetry/core`, nor the semantic conventions it reads (about 440 kB of source).
 * @public
 */
export function installGlobalPropagation(): void {
  const registry = globalThis as { [INSTALLED]?: boolean };
  if (registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks') as typeof ContextAsyncHooks;
  const { W3CTraceContextPropagator } = require('@opentelemetry/core') as typeof OtelCore;
  const manager = new AsyncLocalStorageContextManager();
  if (!context.setGlobalContextManager(manager.enable())) manager.disable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
