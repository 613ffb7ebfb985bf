import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';

/**
 * A fetch that gives every request its own AbortSignal, linked to the one the
 * caller passed and unlinked when the response body ends (or the request
 * fails). The MCP client passes one transport-lifetime signal to every fetch,
 * and undici adds an abort listener per request that only garbage collection
 * removes: a pooled client otherwise gathers thousands of listeners, each
 * request scanning them (MaxListenersExceededWarning, slower calls, memory).
 */
export function requestScopedSignalFetch(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const parent = init?.signal;
    if (!parent || parent.aborted) return base(url, init);
    const controller = new AbortController();
    const forward = (): void => controller.abort(parent.reason);
    parent.addEventListener('abort', forward, { once: true });
    const release = (): void => parent.removeEventListener('abort', forward);
    try {
      return releasedWhenBodyEnds(await base(url, { ...init, signal: controller.signal }), release);
    } catch (error) {
      release();
      throw error;
    }
  };
}

/** The same response, calling `release` once its body is read to the end, fails or is cancelled. */
function releasedWhenBodyEnds(response: Response, release: () => void): Response {
  if (!response.body) {
    release();
    return response;
  }
  const reader = response.body.getReader();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          release();
          controller.close();
        } else {
          controller.enqueue(value);
        }
      } catch (error) {
        release();
        controller.error(error);
      }
    },
    cancel(reason) {
      release();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
