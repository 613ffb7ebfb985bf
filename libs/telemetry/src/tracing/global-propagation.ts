import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

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
 * @public
 */
export function installGlobalPropagation(): void {
  const registry = globalThis as { [INSTALLED]?: boolean };
  if (registry[INSTALLED]) return;
  registry[INSTALLED] = true;
  const manager = new AsyncLocalStorageContextManager();
  if (!context.setGlobalContextManager(manager.enable())) manager.disable();
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}
