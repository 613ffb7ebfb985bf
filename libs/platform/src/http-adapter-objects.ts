import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest hands handlers, guards and interceptors the HTTP adapter's own request and
 * response: Express's extend node's objects, Fastify's wrap them in `raw`. These
 * give the node objects (streams, headers, `finish`) and the declared route under either.
 */
export function nodeRequestOf(request: unknown): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

export function nodeResponseOf(response: unknown): ServerResponse {
  return ((response as { raw?: ServerResponse }).raw ?? response) as ServerResponse;
}

/** The route as declared (`/s2sp/data/:token`), or undefined when the adapter did not match one. */
export function declaredRouteOf(request: unknown): string | undefined {
  const express = request as { route?: { path?: unknown }; baseUrl?: unknown };
  if (typeof express.route?.path === 'string') return `${typeof express.baseUrl === 'string' ? express.baseUrl : ''}${express.route.path}`;
  const fastifyRoute = (request as { routeOptions?: { url?: unknown } }).routeOptions?.url;
  return typeof fastifyRoute === 'string' ? fastifyRoute : undefined;
}

/**
 * The node response of a handler that writes it itself (streams, status, headers).
 * Fastify would also send once the handler is done: its reply is hijacked first.
 */
export function takeNodeResponse(response: unknown): ServerResponse {
  const reply = response as { raw?: ServerResponse; hijack?: () => void; sent?: boolean };
  if (reply.raw && typeof reply.hijack === 'function') reply.hijack();
  return nodeResponseOf(response);
}
