import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { sendJsonRpcHttpError } from '../bootstrap/json-rpc-http-error';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import { resolveS2spOptions, type ResolvedS2spOptions } from '../config/s2sp-options';
import { DataPlaneError, sendDataPlaneError } from '../data-plane/data-plane-error';
import { defaultAllowedHosts, RequestHostPolicy } from './request-host-policy';

/** JSON-RPC code of the MCP transport's HTTP-level refusals. */
const TRANSPORT_ERROR = -32000;

type Refuse = (response: ServerResponse, message: string) => void;

/**
 * Refuses, with 403, a request whose Host or Origin the policy does not allow;
 * runs before the route, so a refused data-plane fetch never reaches (or
 * consumes) its resource.
 */
export function requestHostMiddleware(policy: RequestHostPolicy, refuse: Refuse) {
  return (request: IncomingMessage, response: ServerResponse, next: () => void): void => {
    const refusal = policy.refusal(singleHeader(request.headers.host), singleHeader(request.headers.origin));
    if (refusal === undefined) return next();
    // The body is left unread: the connection closes with the answer.
    response.setHeader('connection', 'close');
    refuse(response, refusal);
  };
}

/**
 * Mounts Host/Origin validation (DNS-rebinding protection) on `/mcp` (when
 * served over HTTP) and the data plane, from S2spModule's allowedHosts and
 * allowedOrigins. Like the authentication middleware, `app.use` runs it before
 * the routes on Express and on Fastify, on node's request and response. The
 * default hosts depend on the address the app is bound to, so they are read
 * once it listens.
 */
export function mountRequestHostValidation(app: INestApplication, options: { mcpOverHttp: boolean }): RequestHostPolicy {
  const s2sp = s2spOptionsOf(app);
  let defaults: ReturnType<typeof defaultAllowedHosts> | undefined;
  const policy = new RequestHostPolicy(() => {
    if (s2sp.allowedHosts !== undefined) return s2sp.allowedHosts;
    defaults ??= boundDefaults(app, s2sp);
    // Bound to a public address without a public URL: no host to pin, Origin still checked.
    return defaults.length > 0 ? defaults : '*';
  }, s2sp.allowedOrigins);
  if (options.mcpOverHttp) {
    app.use('/mcp', requestHostMiddleware(policy, (response, message) => sendJsonRpcHttpError(response, 403, TRANSPORT_ERROR, message)));
  }
  app.use('/s2sp/data', requestHostMiddleware(policy, (response, message) => sendDataPlaneError(response, new DataPlaneError(403, 'FORBIDDEN', message))));
  return policy;
}

function boundDefaults(app: INestApplication, options: ResolvedS2spOptions): ReturnType<typeof defaultAllowedHosts> {
  const address = (app.getHttpServer() as { address(): AddressInfo | string | null }).address();
  return defaultAllowedHosts(address, options.publicBaseUrl);
}

/**
 * An app without S2spModule has only `/mcp`; it gets the defaults. Looked up through the
 * ModuleRef: a failed `app.get` would end the process under Nest's default abortOnError.
 */
function s2spOptionsOf(app: INestApplication): ResolvedS2spOptions {
  try {
    return app.get(ModuleRef).get<ResolvedS2spOptions>(S2SP_OPTIONS, { strict: false });
  } catch {
    return resolveS2spOptions({});
  }
}

function singleHeader(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
