import type { INestApplication } from '@nestjs/common';
import {
  AuthorizationGate,
  bearerAuthMiddleware,
  mcpHttpAuthMiddleware,
  protectedResourceMetadataMiddleware,
  S2SP_DATA_READ_SCOPE,
  type BearerAuthMiddleware,
  type ResolvedAuthOptions,
} from '@s2sp/auth';
import { AUTH_OPTIONS } from '@s2sp/auth/internal';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { issuerUrls, McpProtectedResource, type McpServerAuthOptions } from './mcp-protected-resource';

/** What serveMcp mounts once it knows where `/mcp` is served and with which tools. */
export interface MountedS2spAuth {
  gate: AuthorizationGate;
  /** Over HTTP: the server as an OAuth protected resource (metadata, challenges, audiences). */
  resource?: McpProtectedResource;
  /** Over HTTP: authentication of `/mcp`, which serveMcp runs in the endpoint's one middleware chain. */
  mcp?: BearerAuthMiddleware;
}

/**
 * Requires a bearer token on `/mcp` (when served over HTTP: the middleware returned, which
 * serveMcp mounts) and, under the `bearer` data-plane policy, on the data plane (which also
 * needs `s2sp:data:read`); a token may name the service's audience or, over HTTP, the resource
 * URL. Over HTTP the Protected Resource Metadata is served (without a token) and every 401
 * points to it. Mounted with `app.use`, they run before the routes on Express and on Fastify
 * (@fastify/middie, which Nest's adapter registers), on node's request and response,
 * so a refused data-plane fetch never consumes its resource. Under `capability` the
 * data plane stays open: the resource_url is the credential.
 */
export function mountS2spAuth(
  app: INestApplication,
  auth: McpServerAuthOptions & { resourceName: string },
  options: { mcpOverHttp: boolean },
): MountedS2spAuth {
  let gate: AuthorizationGate;
  try {
    gate = app.get(AuthorizationGate, { strict: false });
  } catch {
    throw new Error('serveMcp: `auth` needs AuthModule.forRoot(...) (from @s2sp/auth) among the module imports.');
  }
  const dataPlaneAsksForTokens = dataPlaneAuthOf(app) === 'bearer';
  if (!options.mcpOverHttp) {
    if (dataPlaneAsksForTokens) app.use('/s2sp/data', dataPlaneAuth(gate, [auth.audience]));
    return { gate };
  }
  const resource = new McpProtectedResource(auth, issuerUrls(authIssuersOf(app)), dataPlaneAsksForTokens);
  app.use(
    resource.metadataPath,
    protectedResourceMetadataMiddleware(() => resource.document()),
  );
  // Built at the first request: the default resource URL is known once the server listens.
  const lazily = (build: () => BearerAuthMiddleware): BearerAuthMiddleware => {
    let middleware: BearerAuthMiddleware | undefined;
    return (request, response, next) => (middleware ??= build())(request, response, next);
  };
  const mcp = lazily(() =>
    mcpHttpAuthMiddleware(gate, resource.audiences(), {
      resourceMetadataUrl: resource.metadataUrl(),
      challengeScopes: () => resource.scopesSupported(),
    }),
  );
  if (dataPlaneAsksForTokens)
    app.use(
      '/s2sp/data',
      lazily(() => dataPlaneAuth(gate, resource.audiences())),
    );
  return { gate, resource, mcp };
}

function dataPlaneAuth(gate: AuthorizationGate, audiences: readonly string[]): BearerAuthMiddleware {
  return bearerAuthMiddleware(gate, {
    service: audiences[0],
    audience: audiences,
    protocol: 's2sp-data',
    requiredScopes: [S2SP_DATA_READ_SCOPE],
  });
}

/** An app without S2spModule has no data plane to protect; it keeps the strict default. */
function dataPlaneAuthOf(app: INestApplication): ResolvedS2spOptions['dataPlaneAuth'] {
  try {
    return app.get<ResolvedS2spOptions>(S2SP_OPTIONS, { strict: false }).dataPlaneAuth;
  } catch {
    return 'bearer';
  }
}

function authIssuersOf(app: INestApplication): readonly string[] {
  return app.get<ResolvedAuthOptions>(AUTH_OPTIONS, { strict: false }).issuers;
}
