import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import { ROOT_CONTEXT, type Context } from '@opentelemetry/api';
import type { IncomingMessage } from 'node:http';
import type { Observable } from 'rxjs';
import { SpanNames, TelemetryAttributes } from '../semantics/attributes';
import { recordToolResultFacts, toolResultFacts } from '../s2sp/tool-result-facts';
import { Telemetry } from '../telemetry';
import { extractFromHeaders, extractFromMcpMeta } from '../tracing/propagation';
import { callerIdOf, NameCache, observeServerCall, serverSpanAttributes } from './server-call';

/**
 * What this interceptor reads of @rekog/mcp-nest's McpContext (duck-typed).
 * @public
 */
export interface McpContextLike {
  readonly mcpRequest: { params?: { name?: unknown; _meta?: Record<string, unknown> } } | undefined;
  getRawRequest(): unknown;
}

/**
 * Server side of an MCP tool call (@rekog/mcp-nest tools: context type `rpc`
 * with an McpContext): the parent from `_meta.traceparent` (any transport,
 * stdio included), else from the HTTP request's `traceparent` header; a
 * `mcp.tools/call <tool>` span; protocol metrics with protocol `mcp` and
 * mcp_tool_call_duration_seconds. A tool error result (`isError`) counts as
 * an error with its `s2sp/error_code`. S2SP resource answers add rows,
 * column counts, s2sp_resources_issued_total and tokens kept out of the context.
 * @public
 */
@Injectable()
export class McpToolTelemetryInterceptor implements NestInterceptor {
  private readonly spanNames = new NameCache(SpanNames.mcpToolCall);

  constructor(private readonly telemetry: Telemetry) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const mcp: unknown = context.switchToRpc().getContext();
    if (!isMcpContextLike(mcp)) return next.handle();
    const params = mcp.mcpRequest?.params;
    const tool = typeof params?.name === 'string' ? params.name : context.getHandler().name;
    const telemetry = this.telemetry;
    return observeServerCall(
      telemetry,
      {
        protocol: 'mcp',
        method: tool,
        spanName: this.spanNames.get(tool),
        parent: mcpParent(params?._meta, mcp),
        attributes: () => ({
          ...serverSpanAttributes(telemetry, 'mcp', tool, callerIdOf(mcp.getRawRequest())),
          [TelemetryAttributes.MCP_TOOL]: tool,
          [TelemetryAttributes.MCP_SERVER]: telemetry.mcpServerId,
        }),
        inspect: (value, span) => {
          const facts = toolResultFacts(value);
          if (!facts) return undefined;
          if (facts.isError) return facts.errorCode;
          recordToolResultFacts(facts, tool, span, telemetry.metrics);
          return undefined;
        },
        onEnd: (seconds, code) =>
          telemetry.metrics.recordToolCall(
            tool,
            telemetry.mcpServerId,
            seconds,
            code === undefined ? 'success' : 'error',
          ),
      },
      next,
    );
  }
}

/** @public */
export function isMcpContextLike(value: unknown): value is McpContextLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    'mcpRequest' in value &&
    typeof (value as McpContextLike).getRawRequest === 'function'
  );
}

/** `_meta` first (per request, works on stdio); the HTTP headers of the MCP POST otherwise. */
function mcpParent(meta: Record<string, unknown> | undefined, mcp: McpContextLike): Context {
  if (meta && typeof meta.traceparent === 'string') return extractFromMcpMeta(meta);
  const raw = mcp.getRawRequest() as Pick<IncomingMessage, 'headers'> | undefined;
  return raw?.headers ? extractFromHeaders(raw.headers) : ROOT_CONTEXT;
}
