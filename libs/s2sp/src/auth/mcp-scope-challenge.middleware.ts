import type { IncomingMessage, ServerResponse } from 'node:http';
import { AuthError, callerFrom, missingScopes, PermissionDeniedError, type AuthorizationGate } from '@s2sp/auth';
import { bearerChallenge, traceIdFrom, writeAuthRefusal } from '@s2sp/auth/internal';
import type { McpProtectedResource } from './mcp-protected-resource';

type ParsedMcpRequest = IncomingMessage & { body?: unknown };

/**
 * Refuses a `tools/call` whose token lacks a scope the tool requires with HTTP 403 and
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…", resource_metadata="…"`,
 * before the MCP transport answers: MCP clients read that challenge to ask the authorization
 * server for the scope (step-up) and retry. The refusal is audited like the tool guard's.
 * Runs after authentication and after the body is parsed.
 */
export function mcpScopeChallengeMiddleware(gate: AuthorizationGate, resource: McpProtectedResource) {
  return (request: ParsedMcpRequest, response: ServerResponse, next: (error?: unknown) => void): void => {
    const call = toolsCallOf(request.body);
    const identity = callerFrom(request);
    const required = call ? resource.requiredScopesOf(call.name) : [];
    if (!call || !identity || required.length === 0 || missingScopes(identity, required).length === 0) {
      next();
      return;
    }
    const target = {
      protocol: 'mcp' as const,
      service: resource.audience,
      operation: call.name,
      traceId: traceIdFrom(call.traceparent),
      remoteAddress: request.socket?.remoteAddress,
    };
    gate.authorize(identity, { requiredScopes: [...required], mutationClass: 'READ_ONLY' }, target).then(
      () => next(),
      (error: unknown) => {
        if (!(error instanceof AuthError)) {
          next(error);
          return;
        }
        // Asking for what the token holds plus what the tool needs keeps the client's other abilities.
        const challenge = bearerChallenge(
          resource.audience,
          error instanceof PermissionDeniedError
            ? new PermissionDeniedError(error.missingScopes, [...new Set([...identity.scopes, ...required])].sort())
            : error,
          true,
          resource.metadataUrl(),
        );
        writeAuthRefusal(response, error, { challenge, jsonRpcId: call.id });
      },
    );
  };
}

interface ToolsCall {
  id: string | number | null;
  name: string;
  traceparent?: unknown;
}

/** A single JSON-RPC `tools/call` request naming a tool; anything else is left to the transport. */
function toolsCallOf(body: unknown): ToolsCall | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const message = body as {
    method?: unknown;
    id?: unknown;
    params?: { name?: unknown; _meta?: { traceparent?: unknown } };
  };
  if (message.method !== 'tools/call' || typeof message.params?.name !== 'string') return undefined;
  const id = typeof message.id === 'string' || typeof message.id === 'number' ? message.id : null;
  return { id, name: message.params.name, traceparent: message.params._meta?.traceparent };
}
