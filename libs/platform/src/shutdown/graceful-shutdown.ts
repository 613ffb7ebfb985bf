import { Logger } from '@nestjs/common';
import type { ShutdownOptions } from './shutdown-options';
import type { Readiness } from './readiness';

/** @internal */
export interface GracefulShutdownSteps {
  options: ShutdownOptions;
  readiness: Readiness;
  /**
   * What must finish before the app closes (in-flight HTTP requests, gRPC
   * calls, running tasks), run together; each stops taking new work, waits
   * until `deadline` at most, and resolves true when it finished in time.
   */
  drains: Array<{ name: string; drain(deadline: number): Promise<boolean> }>;
  /** Closes the app: its shutdown hooks flush the audit, end what is left and close the database. */
  close(): Promise<void>;
  log(message: string): void;
}

/**
 * The shutdown every app runs on SIGTERM: report not-ready at once, keep
 * serving for `notReadyDelayMs` (load balancers catch up), then stop
 * accepting and let in-flight work finish until `graceMs` after the start,
 * then close the app.
 */
export async function shutDownGracefully(steps: GracefulShutdownSteps): Promise<void> {
  const deadline = Date.now() + steps.options.graceMs;
  steps.readiness.markShuttingDown();
  steps.log(`shutting down: reporting not-ready, in-flight work has until ${new Date(deadline).toISOString()}`);
  if (steps.options.notReadyDelayMs > 0)
    await new Promise((resolve) => setTimeout(resolve, steps.options.notReadyDelayMs));
  const finished = await Promise.all(
    steps.drains.map(async ({ name, drain }) => ({ name, drained: await drain(deadline) })),
  );
  const cut = finished.filter(({ drained }) => !drained).map(({ name }) => name);
  steps.log(
    cut.length === 0
      ? 'in-flight work finished; closing'
      : `grace period over, cutting off: ${cut.join(', ')}; closing`,
  );
  await steps.close();
}

/** @internal */
export interface ShutdownControls {
  /** Closes the app at once (what is in flight is cut off); later calls share the first. */
  close(): Promise<void>;
  /** {@link shutDownGracefully}, closing through `close()`. */
  shutdown(): Promise<void>;
}

/**
 * The close() and shutdown() an app's start function returns, logging as `Shutdown`.
 * @internal
 */
export function shutdownControls(
  closeApp: () => Promise<void>,
  steps: Omit<GracefulShutdownSteps, 'close' | 'log'>,
): ShutdownControls {
  let closing: Promise<void> | undefined;
  const close = () => (closing ??= closeApp());
  const logger = new Logger('Shutdown');
  return { close, shutdown: () => shutDownGracefully({ ...steps, close, log: (message) => logger.log(message) }) };
}

const TERMINATION_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Runs `shutdown` on the first SIGTERM or SIGINT, then exits 0 (1 when it
 * failed, with its message and no stack). Later signals are logged and
 * ignored. Returns a function that removes the handlers.
 * @public
 */
export function exitOnTerminationSignal(
  shutdown: () => Promise<void>,
  log: { log(message: string): void; error(message: string): void },
): () => void {
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (started) {
      log.log(`${signal}: already shutting down`);
      return;
    }
    started = true;
    log.log(`${signal} received`);
    shutdown().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error(`shutdown failed: ${error instanceof Error ? error.message : String(error)}`);
        process.exit(1);
      },
    );
  };
  for (const signal of TERMINATION_SIGNALS) process.on(signal, onSignal);
  return () => {
    for (const signal of TERMINATION_SIGNALS) process.removeListener(signal, onSignal);
  };
}
