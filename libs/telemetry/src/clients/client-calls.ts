import { performance } from 'node:perf_hooks';
import { SpanKind } from '@opentelemetry/api';
import type { GrpcMetadataLike } from '../tracing/grpc-metadata-like';
import { fetchResultOf } from '../metrics/telemetry-metrics';
import { recordToolResultFacts, toolResultFacts } from '../s2sp/tool-result-facts';
import { shortServiceName, SpanNames, TelemetryAttributes } from '../semantics/attributes';
import type { Telemetry } from '../telemetry';
import { recordFailure } from '../tracing/errors';
import { injectIntoMetadata, traceHeaders, withTraceMeta } from '../tracing/propagation';

/**
 * Client side of a unary gRPC call: a CLIENT span `grpc.<Service>/<Method>`,
 * whose context is written into `metadata` before `call` sends it.
 * `service` may carry its package (`s2sp.v1.AgentService`).
 * @public
 */
export function traceGrpcCall<T, M extends GrpcMetadataLike>(
  telemetry: Telemetry,
  service: string,
  method: string,
  metadata: M,
  call: (metadata: M) => Promise<T>,
): Promise<T> {
  return telemetry.withSpan(
    SpanNames.grpc(service, method),
    telemetry.tracingEnabled
      ? {
          [TelemetryAttributes.PROTOCOL]: 'grpc',
          [TelemetryAttributes.METHOD]: `${shortServiceName(service)}/${method}`,
          [TelemetryAttributes.RPC_SYSTEM]: 'grpc',
          [TelemetryAttributes.RPC_SERVICE]: service,
          [TelemetryAttributes.RPC_METHOD]: method,
        }
      : undefined,
    () => call(injectIntoMetadata(metadata)),
    { kind: SpanKind.CLIENT },
  );
}

/**
 * Client side of an MCP `tools/call`: a CLIENT span `mcp.tools/call <tool>`,
 * `_meta` with `traceparent` / `tracestate` for `call` to send (the only
 * carrier on stdio; over HTTP use tracePropagatingFetch as well), the
 * result's S2SP facts on the span, a tool error result marked failed, and
 * mcp_tool_call_duration_seconds{tool_name, server_id}.
 * @public
 */
export async function traceMcpToolCall<R>(
  telemetry: Telemetry,
  serverId: string,
  tool: string,
  meta: Readonly<Record<string, unknown>> | undefined,
  call: (meta: Record<string, unknown>) => Promise<R>,
): Promise<R> {
  const startedAt = performance.now();
  let failed = true;
  try {
    const result = await telemetry.withSpan(
      SpanNames.mcpToolCall(tool),
      telemetry.tracingEnabled
        ? {
            [TelemetryAttributes.PROTOCOL]: 'mcp',
            [TelemetryAttributes.MCP_TOOL]: tool,
            [TelemetryAttributes.MCP_SERVER]: serverId,
          }
        : undefined,
      async (span) => {
        const answer = await call(withTraceMeta(meta));
        const facts = toolResultFacts(answer);
        if (facts?.isError) recordFailure(span, facts.errorCode ?? 'TOOL_ERROR');
        else if (facts) recordToolResultFacts(facts, tool, span);
        failed = facts?.isError === true;
        return answer;
      },
      { kind: SpanKind.CLIENT },
    );
    return result;
  } finally {
    telemetry.metrics.recordToolCall(
      tool,
      serverId,
      (performance.now() - startedAt) / 1000,
      failed ? 'error' : 'success',
    );
  }
}

/**
 * Consumer side of a data-plane fetch: a CLIENT span `s2sp.data.fetch`
 * (attributes: the resource server's origin, never the URL — it is the
 * capability; rows asked and received), the headers to send with the POST,
 * and s2sp_fetches_total{side="consumer", result}. Errors are classified by
 * their S2SP code (RESOURCE_GONE → gone, DEADLINE_EXCEEDED → timeout, …).
 * @public
 */
export function traceDataPlaneFetch<Rows extends readonly unknown[]>(
  telemetry: Telemetry,
  resourceUrl: string,
  rowsRequested: number,
  fetchBody: (traceHeaders: Record<string, string>) => Promise<Rows>,
): Promise<Rows> {
  return telemetry
    .withSpan(
      SpanNames.DATA_PLANE_FETCH,
      telemetry.tracingEnabled
        ? {
            [TelemetryAttributes.PROTOCOL]: 's2sp-data',
            [TelemetryAttributes.SERVER_ADDRESS]: originOf(resourceUrl),
            [TelemetryAttributes.ROWS_REQUESTED]: rowsRequested,
          }
        : undefined,
      async (span) => {
        let rows: Rows;
        try {
          rows = await fetchBody(traceHeaders());
        } catch (error) {
          if (span.isRecording())
            span.setAttribute(TelemetryAttributes.FETCH_RESULT, fetchResultOf(String(telemetry.errorCode(error))));
          throw error;
        }
        if (span.isRecording()) {
          span.setAttribute(TelemetryAttributes.ROWS, rows.length);
          span.setAttribute(TelemetryAttributes.FETCH_RESULT, 'ok');
        }
        return rows;
      },
      { kind: SpanKind.CLIENT },
    )
    .then(
      (rows) => {
        telemetry.metrics.dataPlaneFetch('ok', 'consumer');
        return rows;
      },
      (error: unknown) => {
        telemetry.metrics.dataPlaneFetch(fetchResultOf(String(telemetry.errorCode(error))), 'consumer');
        throw error;
      },
    );
}

/**
 * Times one gateway translation (e.g. JSON-RPC params → gRPC request) into
 * gateway_transcoding_total / gateway_transcoding_duration_seconds.
 * @public
 */
export function measureTranscoding<T>(
  telemetry: Telemetry,
  source: string,
  target: string,
  method: string,
  translate: () => T,
): T {
  if (!telemetry.metricsEnabled) return translate();
  const startedAt = performance.now();
  try {
    return translate();
  } finally {
    telemetry.metrics.recordTranscoding(source, target, method, (performance.now() - startedAt) / 1000);
  }
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return 'invalid-url';
  }
}
