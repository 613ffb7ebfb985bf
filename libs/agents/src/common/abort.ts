/**
 * An AbortController for one call, aborted when `parent` aborts. The MCP
 * client adds a listener to every signal it is given and never removes it,
 * so long-lived signals (a task's) must not be handed to it directly.
 */
export function childAbortController(parent: AbortSignal | undefined): {
  controller: AbortController;
  dispose(): void;
} {
  const controller = new AbortController();
  if (parent === undefined) return { controller, dispose: () => undefined };
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { controller, dispose: () => undefined };
  }
  const forward = () => controller.abort(parent.reason);
  parent.addEventListener('abort', forward, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', forward) };
}

/** Waits for `promise`, or rejects with the signal's reason as soon as it aborts (the promise keeps running). */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The reason an AbortSignal carries, as an Error. */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(typeof reason === 'string' ? reason : 'aborted');
}
