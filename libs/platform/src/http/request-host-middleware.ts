import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { singleHeader } from '../http-adapter-objects';
import {
  defaultAllowedHosts,
  RequestHostPolicy,
  type AllowedHost,
  type AllowList,
  type HostPolicySettings,
  type HostRefusal,
} from './request-host-policy';

/**
 * Writes the 403 answer of a refused request, in the shape its route speaks.
 * @internal
 */
export type HostRefusalWriter = (response: ServerResponse, refusal: HostRefusal) => void;

/**
 * Refuses, with 403, a request whose Host or Origin the policy does not allow.
 * Mounted with `app.use` it runs before the route on Express and on Fastify, so
 * a refused request never reaches a handler (nor reads, consumes or mints anything).
 * `exempt` lists paths (exact, query string ignored) the check leaves alone.
 * @internal
 */
export function requestHostMiddleware(
  policy: RequestHostPolicy,
  refuse: HostRefusalWriter,
  exempt: readonly string[] = [],
) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    if (exempt.length > 0 && exempt.includes(pathOf(request))) {
      next();
      return;
    }
    const refusal = policy.refusal(singleHeader(request.headers.host), singleHeader(request.headers.origin));
    if (refusal === undefined) {
      next();
      return;
    }
    // The body is left unread: the connection closes with the answer.
    response.setHeader('connection', 'close');
    refuse(response, refusal);
  };
}

/**
 * The allowlists of one server, as configured; unset lists take the defaults.
 * @internal
 */
export interface RequestHostPolicyOptions {
  allowedHosts?: AllowList<AllowedHost>;
  allowedOrigins?: AllowList<string>;
  /** The server's public URL, when it has one: its host is allowed by default. */
  publicUrl?: () => string;
  settings?: HostPolicySettings;
}

/**
 * The policy of an app: configured hosts, or else the defaults of the address
 * the app is bound to (see defaultAllowedHosts), read once it listens. Bound to
 * a public address without a public URL, no host is pinned (the Origin is still checked).
 * @internal
 */
export function boundRequestHostPolicy(app: INestApplication, options: RequestHostPolicyOptions): RequestHostPolicy {
  let defaults: AllowedHost[] | undefined;
  return new RequestHostPolicy(
    () => {
      if (options.allowedHosts !== undefined) return options.allowedHosts;
      defaults ??= defaultAllowedHosts(boundAddress(app), options.publicUrl);
      return defaults.length > 0 ? defaults : '*';
    },
    options.allowedOrigins,
    options.settings,
  );
}

/** The address an app's HTTP server is bound to (null before it listens). */
export function boundAddress(app: INestApplication): AddressInfo | string | null {
  return (app.getHttpServer() as { address(): AddressInfo | string | null }).address();
}

/**
 * A refusal as a JSON body: `{statusCode: 403, error: "Forbidden", check, message}`.
 * @internal
 */
export function sendHostRefusalJson(response: ServerResponse, refusal: HostRefusal): void {
  const body = JSON.stringify({ statusCode: 403, error: 'Forbidden', check: refusal.check, message: refusal.message });
  response.writeHead(403, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  response.end(body);
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
