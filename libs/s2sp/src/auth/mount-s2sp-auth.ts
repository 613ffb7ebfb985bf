import type { INestApplication } from '@nestjs/common';
import { AuthorizationGate, bearerAuthMiddleware, mcpHttpAuthMiddleware, S2SP_DATA_READ_SCOPE } from '@s2sp/auth';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';

/**
 * Requires a bearer token for `audience` on `/mcp` (when served over HTTP) and,
 * under the `bearer` data-plane policy, on the data plane (which also needs
 * `s2sp:data:read`). Mounted with `app.use`, they run before the routes on
 * Express and on Fastify (@fastify/middie, which Nest's adapter registers), on
 * node's request and response, so a refused data-plane fetch never consumes its
 * resource. Under `capability` the data plane stays open: the resource_url is
 * the credential.
 */
export function mountS2spAuth(app: INestApplication, audience: string, options: { mcpOverHttp: boolean }): void {
  let gate: AuthorizationGate;
  try {
    gate = app.get(AuthorizationGate, { strict: false });
  } catch {
    throw new Error('serveMcp: `auth` needs AuthModule.forRoot(...) (from @s2sp/auth) among the module imports.');
  }
  if (options.mcpOverHttp) app.use('/mcp', mcpHttpAuthMiddleware(gate, audience));
  if (dataPlaneAuthOf(app) === 'capability') return;
  app.use(
    '/s2sp/data',
    bearerAuthMiddleware(gate, {
      service: audience,
      audience,
      protocol: 's2sp-data',
      requiredScopes: [S2SP_DATA_READ_SCOPE],
    }),
  );
}

/** An app without S2spModule has no data plane to protect; it keeps the strict default. */
function dataPlaneAuthOf(app: INestApplication): ResolvedS2spOptions['dataPlaneAuth'] {
  try {
    return app.get<ResolvedS2spOptions>(S2SP_OPTIONS, { strict: false }).dataPlaneAuth;
  } catch {
    return 'bearer';
  }
}
