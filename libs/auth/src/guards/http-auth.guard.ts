import { Injectable, type ExecutionContext } from '@nestjs/common';
import { declaredRouteOf } from '@s2sp/platform/internal';
import type { IncomingHttpHeaders } from 'node:http';
import { AuthenticationError } from '../errors/authentication-error';
import { PermissionDeniedError } from '../errors/permission-denied-error';
import { attachCaller, requestUserOf } from '../transport/caller-carrier';
import { traceIdFrom } from '../transport/trace-id';
import { ProtocolAuthGuard } from './protocol-auth-guard';

/**
 * Bearer authentication + @RequireScopes / @MutationClass authorization for Nest
 * HTTP routes (context type 'http'; other context types are left to their own guard).
 * On success `req.user` is a {@link RequestUser} and `callerFrom(req)` the identity.
 * Failures: 401 with `WWW-Authenticate: Bearer …` and `{ error: { code, message } }`
 * without detail; 403 naming the missing scopes (or APPROVAL_REQUIRED).
 */
/** What the guard reads of a request, on Express and on Fastify alike. */
interface HttpRequestLike {
  method?: string;
  baseUrl?: string;
  headers: IncomingHttpHeaders;
  socket?: { remoteAddress?: string };
  user?: unknown;
}

/** @public */
@Injectable()
export class HttpAuthGuard extends ProtocolAuthGuard {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') return true;
    const requirements = this.requirements.read(context);
    if (requirements.allowAnonymous) return true;
    const request = context.switchToHttp().getRequest<HttpRequestLike>();
    const response = context.switchToHttp().getResponse<{ setHeader(name: string, value: string): unknown }>();
    const target = {
      protocol: 'http' as const,
      service: this.options.audience,
      operation: httpOperation(request, context),
      traceId: traceIdFrom(request.headers.traceparent, request.headers['x-trace-id']),
      remoteAddress: request.socket?.remoteAddress,
    };
    try {
      const grant = await this.gate.check(request.headers.authorization, requirements, target);
      request.user = requestUserOf(grant.identity);
      attachCaller(request, grant.identity);
      return true;
    } catch (error) {
      const challenge = bearerChallenge(this.options.audience, error, request.headers.authorization !== undefined);
      if (challenge) response.setHeader('WWW-Authenticate', challenge);
      throw error;
    }
  }
}

/** The route pattern (`POST /s2sp/data/:token`), never the URL with its parameters. */
export function httpOperation(request: HttpRequestLike, context?: ExecutionContext): string {
  const route = declaredRouteOf(request);
  if (route !== undefined) return `${request.method ?? 'GET'} ${route}`;
  if (context) return `${request.method} ${context.getClass().name}.${context.getHandler().name}`;
  return `${request.method} ${request.baseUrl || '/'}`;
}

/**
 * RFC 6750 §3 challenge for a 401 (or a 403 for missing scope); undefined for other errors.
 * @internal
 */
export function bearerChallenge(
  realm: string,
  error: unknown,
  credentialsPresented: boolean,
  resourceMetadataUrl?: string,
  scopes: readonly string[] = [],
): string | undefined {
  const quote = (value: string): string => value.replace(/[\\"]/g, '\\$&');
  const params = [`realm="${quote(realm)}"`];
  if (resourceMetadataUrl) params.push(`resource_metadata="${quote(resourceMetadataUrl)}"`);
  if (error instanceof AuthenticationError) {
    if (credentialsPresented) params.push('error="invalid_token"');
    // The scopes to ask the authorization server for (MCP clients read them from here first).
    if (scopes.length > 0) params.push(`scope="${quote(scopes.join(' '))}"`);
    return `Bearer ${params.join(', ')}`;
  }
  if (error instanceof PermissionDeniedError) {
    params.push('error="insufficient_scope"', `scope="${quote(error.requiredScopes.join(' '))}"`);
    return `Bearer ${params.join(', ')}`;
  }
  return undefined;
}
