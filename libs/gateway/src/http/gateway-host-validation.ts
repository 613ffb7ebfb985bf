import type { INestApplication } from '@nestjs/common';
import { type RequestHostPolicy } from '@s2sp/platform';
import {
  boundRequestHostPolicy,
  requestHostMiddleware,
  resolveHostAllowLists,
  sendHostRefusalJson,
} from '@s2sp/platform/internal';
import type { GatewayConfig } from '../gateway.config';

/**
 * Paths the Host/Origin check leaves alone: probes and scrapers (load
 * balancers, kubelets, Prometheus) call them by IP or by a name of their own,
 * and they answer nothing a web page could use: no token, no call, no data.
 */
export const HOST_CHECK_EXEMPT_PATHS: readonly string[] = ['/health', '/health/live', '/metrics'];

/**
 * DNS-rebinding protection of every other gateway route (`/rpc` and its event
 * streams, `/console`, `/console/api/*`, `/schemas`): the same policy, options
 * and defaults as the MCP servers' (RequestHostPolicy of @s2sp/platform).
 * Mounted with `app.use` before the routes, so it also answers CORS preflights:
 * a foreign origin's OPTIONS gets 403, and the gateway sends no CORS headers at all.
 */
export function mountGatewayHostValidation(app: INestApplication, config: GatewayConfig): RequestHostPolicy {
  const publicUrl = config.publicUrl;
  const policy = boundRequestHostPolicy(app, {
    ...resolveHostAllowLists('Gateway config', config),
    ...(publicUrl ? { publicUrl: () => publicUrl } : {}),
    settings: { hosts: 'allowedHosts / GATEWAY_ALLOWED_HOSTS', origins: 'allowedOrigins / GATEWAY_ALLOWED_ORIGINS' },
  });
  app.use(requestHostMiddleware(policy, sendHostRefusalJson, HOST_CHECK_EXEMPT_PATHS));
  return policy;
}
