import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { boundRequestHostPolicy, requestHostMiddleware } from '@s2sp/platform/internal';
import { sendJsonRpcHttpError } from '../bootstrap/json-rpc-http-error';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import { resolveS2spOptions, type ResolvedS2spOptions } from '../config/s2sp-options';
import { DataPlaneError, sendDataPlaneError } from '../data-plane/data-plane-error';
import type { NodeMiddleware } from './node-middleware-chain';

/** JSON-RPC code of the MCP transport's HTTP-level refusals. */
const TRANSPORT_ERROR = -32000;

/**
 * Host/Origin validation (DNS-rebinding protection) from S2spModule's allowedHosts and
 * allowedOrigins: mounted here on the data plane, and returned for `/mcp`, where serveMcp runs
 * it first in the endpoint's one middleware chain. Like the authentication middleware, `app.use`
 * runs it before the routes on Express and on Fastify, on node's request and response; a refused
 * data-plane fetch never reaches (or consumes) its resource.
 */
export function mountRequestHostValidation(app: INestApplication): { mcp: NodeMiddleware } {
  const s2sp = s2spOptionsOf(app);
  const policy = boundRequestHostPolicy(app, {
    allowedHosts: s2sp.allowedHosts,
    allowedOrigins: s2sp.allowedOrigins,
    publicUrl: s2sp.publicBaseUrl,
  });
  app.use(
    '/s2sp/data',
    requestHostMiddleware(policy, (response, refusal) =>
      sendDataPlaneError(response, new DataPlaneError(403, 'FORBIDDEN', refusal.message)),
    ),
  );
  return {
    mcp: requestHostMiddleware(policy, (response, refusal) =>
      sendJsonRpcHttpError(response, 403, TRANSPORT_ERROR, refusal.message),
    ),
  };
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
