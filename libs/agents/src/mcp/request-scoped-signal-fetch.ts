import type { FetchLike } from '@modelcontextprotocol/client';

/**
 * A fetch that gives every request its own AbortSignal, aborted when the one
 * the caller passed aborts and unlinked when the response body ends (or the
 * request fails). The MCP client passes one transport-lifetime signal to every
 * fetch: undici adds an abort listener per request that only garbage
 * collection removes (thousands on a pooled client, each request scanning
 * them), and even one listener per request in flight trips Node's
 * MaxListenersExceededWarning past 10 concurrent calls to one MCP server. So
 * the shared signal gets a single listener that aborts every linked request.
 */
export function requestScopedSignalFetch(base: FetchLike = fetch): FetchLike {
  return async (url, init) => {
    const parent = init?.signal;
    if (!parent || parent.aborted) return base(url, init);
    const { signal, release } = linkedRequestSignal(parent);
    try {
      return releasedWhenBodyEnds(await base(url, { ...init, signal }), release);
    } catch (error) {
      release();
      throw error;
    }
  };
}

/** The requests in flight under each shared signal, aborted by its one listener. */
const linkedRequests = new WeakMap<AbortSignal, Set<AbortController>>();

function linkedRequestSignal(parent: AbortSignal): { signal: AbortSignal; release(): void } {
  let requests = linkedRequests.get(parent);
  if (!requests) {
    const created = new Set<AbortController>();
    parent.addEventListener(
      'abort',
      () => {
        for (const request of created) request.abort(parent.reason);
        created.clear();
      },
      { once: true },
    );
    linkedRequests.set(parent, created);
    requests = created;
  }
  const controller = new AbortController();
  requests.add(controller);
  const linked = requests;
  return { signal: controller.signal, release: () => void linked.delete(controller) };
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
