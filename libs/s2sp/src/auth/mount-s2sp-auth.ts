import type { INestApplication } from '@nestjs/common';
import { AuthorizationGate, bearerAuthMiddleware, mcpHttpAuthMiddleware, S2SP_DATA_READ_SCOPE } from '@s2sp/auth';

/**
 * Requires a bearer token for `audience` on `/mcp` (when served over HTTP) and
 * on the data plane (which also needs `s2sp:data:read`). Express runs these
 * before the routes, so a refused data-plane fetch never consumes its resource.
 */
export function mountS2spAuth(app: INestApplication, audience: string, options: { mcpOverHttp: boolean }): void {
  let gate: AuthorizationGate;
  try {
    gate = app.get(AuthorizationGate, { strict: false });
  } catch {
    throw new Error('serveMcp: `auth` needs AuthModule.forRoot(...) (from @s2sp/auth) among the module imports.');
  }
  if (options.mcpOverHttp) app.use('/mcp', mcpHttpAuthMiddleware(gate, audience));
  app.use(
    '/s2sp/data',
    bearerAuthMiddleware(gate, { service: audience, audience, protocol: 's2sp-data', requiredScopes: [S2SP_DATA_READ_SCOPE] }),
  );
}
