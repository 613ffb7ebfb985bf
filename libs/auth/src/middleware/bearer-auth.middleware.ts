import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditSink } from '../audit/audit-sink';
import { LoggerAuditSink } from '../audit/logger-audit-sink';
import type { ApprovalProvider } from '../authorization/approval-provider';
import { AuthorizationGate } from '../authorization/authorization-gate';
import type { AuthProtocol } from '../authorization/authorization-target';
import { DenyAllApprovalProvider } from '../authorization/deny-all-approval-provider';
import type { MutationClass } from '../authorization/mutation-class';
import { AuthError } from '../errors/auth-error';
import type { TokenVerifier } from '../identity/token-verifier';
import { bearerChallenge } from '../guards/http-auth.guard';
import { writeAuthRefusal } from './auth-refusal-response';
import { attachCaller, requestUserOf } from '../transport/caller-carrier';
import { traceIdFrom } from '../transport/trace-id';

/** @public */
export interface BearerAuthMiddlewareOptions {
  /** Name of the protected service, for audit and the `realm` of challenges. */
  service: string;
  /** Audience(s) accepted here; default: the verifier's own. */
  audience?: string | readonly string[];
  /** Default 'http'. */
  protocol?: AuthProtocol;
  /** Scopes every request must carry (default none: authentication only). */
  requiredScopes?: readonly string[];
  /** Default READ_ONLY. */
  mutationClass?: MutationClass;
  /** Audit label; default `<METHOD> <mount path>` (never the rest of the URL, which may be a capability). */
  operation?: string;
  /** Where decisions go when a bare verifier is given (default {@link LoggerAuditSink}). */
  audit?: AuditSink;
  approvals?: ApprovalProvider;
  /** RFC 9728 protected-resource metadata URL for the 401 challenge (MCP authorization). */
  resourceMetadataUrl?: string;
  /** Scopes a 401 challenge tells the client to ask for (`scope="…"`); read per refusal. Default none. */
  challengeScopes?: () => readonly string[];
  /** Body of refusals: `{ error: { code, message } }` (default) or a JSON-RPC error envelope. */
  errorBody?: 'json' | 'json-rpc';
}

/**
 * Node's request and response: what Express and Fastify (through @fastify/middie) both give middleware.
 * @public
 */
export type BearerAuthMiddleware = (
  request: IncomingMessage,
  response: ServerResponse,
  next: (error?: unknown) => void,
) => void;

/**
 * Middleware (Express, or Fastify through `app.use`) enforcing a bearer token on routes Nest guards do not see
 * (the MCP transport's own `/mcp` route) or that you do not own (the S2SP data
 * plane): mount it before the route, e.g. `app.use('/s2sp/data', …)`.
 * On success `req.user` is a {@link RequestUser} and `callerFrom(req)` the identity.
 * Refusals answer 401 (with `WWW-Authenticate: Bearer`) or 403 with no detail
 * beyond the missing scope names. CORS preflights (OPTIONS) pass.
 * @public
 */
export function bearerAuthMiddleware(
  verifierOrGate: TokenVerifier | AuthorizationGate,
  options: BearerAuthMiddlewareOptions,
): BearerAuthMiddleware {
  const gate =
    verifierOrGate instanceof AuthorizationGate
      ? verifierOrGate
      : new AuthorizationGate(
          verifierOrGate,
          options.approvals ?? new DenyAllApprovalProvider(),
          options.audit ?? new LoggerAuditSink(),
        );
  const requirements = {
    requiredScopes: [...(options.requiredScopes ?? [])],
    mutationClass: options.mutationClass ?? 'READ_ONLY',
  } as const;
  const verifyOptions = options.audience === undefined ? undefined : { audience: options.audience };

  return (request, response, next) => {
    if (request.method === 'OPTIONS') {
      next();
      return;
    }
    const target = {
      protocol: options.protocol ?? 'http',
      service: options.service,
      operation: options.operation ?? `${request.method} ${mountPathOf(request)}`,
      traceId: traceIdFrom(request.headers.traceparent, request.headers['x-trace-id']),
      remoteAddress: request.socket?.remoteAddress,
    };
    gate.check(request.headers.authorization, requirements, target, verifyOptions).then(
      (grant) => {
        (request as IncomingMessage & { user?: unknown }).user = requestUserOf(grant.identity);
        attachCaller(request, grant.identity);
        next();
      },
      (error: unknown) => {
        if (!(error instanceof AuthError)) {
          next(error);
          return;
        }
        const challenge = bearerChallenge(
          options.service,
          error,
          request.headers.authorization !== undefined,
          options.resourceMetadataUrl,
          options.challengeScopes?.(),
        );
        writeAuthRefusal(response, error, {
          challenge,
          jsonRpcId: options.errorBody === 'json-rpc' ? null : undefined,
        });
      },
    );
  };
}

/**
 * {@link bearerAuthMiddleware} for the MCP Streamable HTTP route (`audience`: the one a token
 * must name, or several, e.g. the service's and its resource URL; the first names the service):
 * `app.use('/mcp', mcpHttpAuthMiddleware(verifier, 'weather-server'))` before the
 * MCP transport mounts. `req.user` then has the `sub` / `scope` / `scopes` that
 * @rekog/mcp-nest's @ToolScopes checks read, and McpToolAuthGuard finds the caller.
 * @public
 */
export function mcpHttpAuthMiddleware(
  verifierOrGate: TokenVerifier | AuthorizationGate,
  audience: string | readonly string[],
  options: Omit<BearerAuthMiddlewareOptions, 'service' | 'audience' | 'protocol'> & { service?: string } = {},
): BearerAuthMiddleware {
  return bearerAuthMiddleware(verifierOrGate, {
    errorBody: 'json-rpc',
    ...options,
    service: options.service ?? (typeof audience === 'string' ? audience : audience[0]),
    audience,
    protocol: 'mcp',
  });
}

/**
 * The path the middleware is mounted at (`/s2sp/data`), never the rest of the URL:
 * Express's `baseUrl`; under @fastify/middie, `originalUrl` less the `url` it left.
 */
function mountPathOf(request: IncomingMessage & { baseUrl?: string; originalUrl?: string }): string {
  if (typeof request.baseUrl === 'string') return request.baseUrl || '/';
  const full = (request.originalUrl ?? '').split('?')[0];
  const rest = (request.url ?? '').split('?')[0];
  return rest !== '/' && rest !== '' && full.endsWith(rest)
    ? full.slice(0, full.length - rest.length) || '/'
    : full.replace(/\/$/, '') || '/';
}
