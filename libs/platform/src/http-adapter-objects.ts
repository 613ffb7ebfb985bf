import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Nest hands handlers, guards and interceptors the HTTP adapter's own request and
 * response: Express's extend node's objects, Fastify's wrap them in `raw`. These
 * give the node objects (streams, headers, `finish`) and the declared route under either.
 * @internal
 */
export function nodeRequestOf(request: unknown): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

/**
 * The first value of a header node may give as a list.
 * @internal
 */
export function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** @internal */
export function nodeResponseOf(response: unknown): ServerResponse {
  return ((response as { raw?: ServerResponse }).raw ?? response) as ServerResponse;
}

/**
 * The route as declared (`/s2sp/data/:token`), or undefined when the adapter did not match one.
 * @internal
 */
export function declaredRouteOf(request: unknown): string | undefined {
  const express = request as { route?: { path?: unknown }; baseUrl?: unknown };
  if (typeof express.route?.path === 'string')
    return `${typeof express.baseUrl === 'string' ? express.baseUrl : ''}${express.route.path}`;
  const fastifyRoute = (request as { routeOptions?: { url?: unknown } }).routeOptions?.url;
  return typeof fastifyRoute === 'string' ? fastifyRoute : undefined;
}

/**
 * The node response, for a handler that writes it itself (status, headers, a
 * stream). A Fastify reply is hijacked first, so that Fastify does not also send;
 * the headers the app's hooks set on the reply (e.g. @fastify/cors) would be lost
 * with it, so they go on the node response, as Fastify would have sent them (over
 * those already there). Express's response is node's already.
 * @internal
 */
export function takeNodeResponse(response: unknown): ServerResponse {
  const reply = response as { raw?: ServerResponse; hijack?: () => void; getHeaders?: () => Record<string, unknown> };
  if (!reply.raw || typeof reply.hijack !== 'function') return nodeResponseOf(response);
  const headers = reply.getHeaders?.() ?? {};
  for (const name of Object.keys(headers)) {
    if (headers[name] !== undefined) reply.raw.setHeader(name, headers[name] as string | number | readonly string[]);
  }
  reply.hijack();
  return reply.raw;
}
