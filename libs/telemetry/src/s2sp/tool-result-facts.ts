import type { Span } from '@opentelemetry/api';
import { S2SP_META } from '@s2sp/platform/internal';
import type { TelemetryMetrics } from '../metrics/telemetry-metrics';
import { TelemetryAttributes } from '../semantics/attributes';

/**
 * What an MCP tool result says about itself, read without parsing its text.
 * @public
 */
export interface ToolResultFacts {
  isError: boolean;
  /** `_meta['s2sp/error_code']` of an error result. */
  errorCode?: string;
  rows?: number;
  abstractColumns?: number;
  bodyColumns?: number;
  resourceIssued: boolean;
  bodyTokens?: number;
  bodyBytes?: number;
}

/**
 * Code of a tool error result that carries none.
 * @public
 */
export const TOOL_ERROR = 'TOOL_ERROR';

/**
 * Facts of a CallToolResult: error flag and code, and for an S2SP resource
 * answer (structuredContent) its rows, abstract / body column counts,
 * whether a resource_url was issued, and body tokens / bytes from `_meta`.
 * Undefined for anything that is not a tool result.
 * @public
 */
export function toolResultFacts(value: unknown): ToolResultFacts | undefined {
  if (typeof value !== 'object' || value === null || !Array.isArray((value as { content?: unknown }).content))
    return undefined;
  const result = value as { isError?: unknown; structuredContent?: unknown; _meta?: unknown };
  const meta = isRecord(result._meta) ? result._meta : {};
  if (result.isError === true) {
    const code = meta[S2SP_META.ERROR_CODE];
    return {
      isError: true,
      errorCode: typeof code === 'string' && code !== '' ? code : TOOL_ERROR,
      resourceIssued: false,
    };
  }
  const structured = isRecord(result.structuredContent) ? result.structuredContent : {};
  return {
    isError: false,
    rows: count(structured.total_rows),
    abstractColumns: Array.isArray(structured.abstract_domains) ? structured.abstract_domains.length : undefined,
    bodyColumns: Array.isArray(structured.body_domains) ? structured.body_domains.length : undefined,
    resourceIssued: typeof structured.resource_url === 'string',
    bodyTokens: count(meta[S2SP_META.BODY_TOKENS]),
    bodyBytes: count(meta[S2SP_META.BODY_BYTES]),
  };
}

/**
 * Puts the facts on a span (when recording) and, given `metrics` (the
 * resource server's side, so a resource is counted once), the S2SP counters of `tool`.
 * @public
 */
export function recordToolResultFacts(
  facts: ToolResultFacts,
  tool: string,
  span: Span | undefined,
  metrics?: TelemetryMetrics,
): void {
  if (facts.isError) return;
  if (metrics && facts.resourceIssued) metrics.resourceIssued(tool);
  if (metrics && facts.resourceIssued && facts.bodyTokens !== undefined)
    metrics.contextTokensSaved(tool, facts.bodyTokens);
  if (!span?.isRecording()) return;
  setIfDefined(span, TelemetryAttributes.ROWS, facts.rows);
  setIfDefined(span, TelemetryAttributes.ABSTRACT_COLUMNS, facts.abstractColumns);
  setIfDefined(span, TelemetryAttributes.BODY_COLUMNS, facts.bodyColumns);
  setIfDefined(span, TelemetryAttributes.BODY_BYTES, facts.bodyBytes);
  if (facts.resourceIssued) {
    span.setAttribute(TelemetryAttributes.RESOURCE_ISSUED, true);
    setIfDefined(span, TelemetryAttributes.TOKENS_SAVED, facts.bodyTokens);
  }
}

function setIfDefined(span: Span, key: string, value: number | undefined): void {
  if (value !== undefined) span.setAttribute(key, value);
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
