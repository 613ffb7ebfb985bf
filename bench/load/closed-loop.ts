/** What a closed-loop phase measured: the latency of each successful call and the failures by kind. */
export interface PhaseResult {
  elapsedMs: number;
  successLatenciesMs: number[];
  errorsByKind: Map<string, number>;
  /** Set when the workers ran out of work (e.g. pre-issued resources) before the duration ended. */
  exhaustedAtMs?: number;
}

/** Thrown by a call to name its failure kind (e.g. `HTTP 404 RESOURCE_NOT_FOUND`, `rpc 5001`). */
export class CallFailure extends Error {
  constructor(readonly kind: string) {
    super(kind);
  }
}

/** Returned by a call that has no more work to do: the worker stops. */
export const NO_MORE_WORK = Symbol('no more work');

/**
 * `concurrency` workers each run `call` back to back (the next call starts when
 * the previous one ends) until `durationMs` has passed; calls in flight at the
 * deadline are awaited and counted.
 */
export async function runClosedLoop(
  concurrency: number,
  durationMs: number,
  call: () => Promise<unknown>,
): Promise<PhaseResult> {
  const successLatenciesMs: number[] = [];
  const errorsByKind = new Map<string, number>();
  const started = performance.now();
  const deadline = started + durationMs;
  let exhaustedAtMs: number | undefined;
  const worker = async () => {
    while (performance.now() < deadline) {
      const callStarted = performance.now();
      try {
        if ((await call()) === NO_MORE_WORK) {
          exhaustedAtMs ??= callStarted - started;
          return;
        }
        successLatenciesMs.push(performance.now() - callStarted);
      } catch (error) {
        const kind = failureKind(error);
        errorsByKind.set(kind, (errorsByKind.get(kind) ?? 0) + 1);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return {
    elapsedMs: performance.now() - started,
    successLatenciesMs,
    errorsByKind,
    ...(exhaustedAtMs === undefined ? {} : { exhaustedAtMs }),
  };
}

function failureKind(error: unknown): string {
  if (error instanceof CallFailure) return error.kind;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return (error instanceof Error ? error.message : String(error)).slice(0, 60);
}
