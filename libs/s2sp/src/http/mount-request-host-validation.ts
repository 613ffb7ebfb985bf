import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { type RequestHostPolicy } from '@s2sp/platform';
import { boundRequestHostPolicy, requestHostMiddleware } from '@s2sp/platform/internal';
import { sendJsonRpcHttpError } from '../bootstrap/json-rpc-http-error';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import { resolveS2spOptions, type ResolvedS2spOptions } from '../config/s2sp-options';
import { DataPlaneError, sendDataPlaneError } from '../data-plane/data-plane-error';

/** JSON-RPC code of the MCP transport's HTTP-level refusals. */
const TRANSPORT_ERROR = -32000;

/**
 * Mounts Host/Origin validation (DNS-rebinding protection) on `/mcp` (when
 * served over HTTP) and the data plane, from S2spModule's allowedHosts and
 * allowedOrigins. Like the authentication middleware, `app.use` runs it before
 * the routes on Express and on Fastify, on node's request and response; a
 * refused data-plane fetch never reaches (or consumes) its resource.
 */
export function mountRequestHostValidation(
  app: INestApplication,
  options: { mcpOverHttp: boolean },
): RequestHostPolicy {
  const s2sp = s2spOptionsOf(app);
  const policy = boundRequestHostPolicy(app, {
    allowedHosts: s2sp.allowedHosts,
    allowedOrigins: s2sp.allowedOrigins,
    publicUrl: s2sp.publicBaseUrl,
  });
  if (options.mcpOverHttp) {
    app.use(
      '/mcp',
      requestHostMiddleware(policy, (response, refusal) =>
        sendJsonRpcHttpError(response, 403, TRANSPORT_ERROR, refusal.message),
      ),
    );
  }
  app.use(
    '/s2sp/data',
    requestHostMiddleware(policy, (response, refusal) =>
      sendDataPlaneError(response, new DataPlaneError(403, 'FORBIDDEN', refusal.message)),
    ),
  );
  return policy;
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
