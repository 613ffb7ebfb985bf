import {
  context,
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  trace,
  type Context,
  type TextMapGetter,
  type TextMapSetter,
} from '@opentelemetry/api';
import type { GrpcMetadataLike } from './grpc-metadata-like';

/**
 * W3C trace context across every boundary, so one request is one trace: HTTP headers
 * (JSON-RPC, MCP over HTTP, data plane), gRPC metadata, MCP `_meta` (stdio).
 * Extraction starts from the ROOT context: a server span's parent comes from
 * the wire only, never from whatever happened to be active in this process.
 * Requires installGlobalPropagation() (startTelemetry does it).
 */

/**
 * Node's IncomingHttpHeaders, or any object of header values with lower-case names.
 * @public
 */
export type HeaderRecord = Readonly<Record<string, string | string[] | number | undefined>>;

const headerGetter: TextMapGetter<HeaderRecord> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key] ?? carrier[key.toLowerCase()];
    return typeof value === 'number' ? String(value) : value;
  },
};

const recordSetter: TextMapSetter<Record<string, unknown>> = {
  set: (carrier, key, value) => {
    carrier[key] = value;
  },
};

const metadataGetter: TextMapGetter<GrpcMetadataLike> = {
  keys: (carrier) => Object.keys(carrier.getMap()),
  get: (carrier, key) => {
    const values = carrier.get(key).filter((value): value is string => typeof value === 'string');
    return values.length === 0 ? undefined : values;
  },
};

const metadataSetter: TextMapSetter<GrpcMetadataLike> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

const metaGetter: TextMapGetter<Readonly<Record<string, unknown>>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * The remote parent in HTTP request headers (a Node request's `headers`, or a plain object).
 * @public
 */
export function extractFromHeaders(headers: HeaderRecord | undefined): Context {
  return headers ? propagation.extract(ROOT_CONTEXT, headers, headerGetter) : ROOT_CONTEXT;
}

/**
 * Writes `traceparent` (and `tracestate`) of `ctx` into `headers`; returns `headers`.
 * @public
 */
export function injectIntoHeaders<T extends Record<string, unknown>>(headers: T, ctx: Context = context.active()): T {
  propagation.inject(ctx, headers, recordSetter);
  return headers;
}

/**
 * `{ traceparent, tracestate }` of the active (or given) context; empty when there is none.
 * @public
 */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const headers: Record<string, string> = {};
  if (hasValidSpan(ctx)) propagation.inject(ctx, headers, recordSetter);
  return headers;
}

/**
 * The remote parent in gRPC request metadata (`traceparent` / `tracestate` text keys).
 * @public
 */
export function extractFromMetadata(metadata: GrpcMetadataLike | undefined): Context {
  return metadata ? propagation.extract(ROOT_CONTEXT, metadata, metadataGetter) : ROOT_CONTEXT;
}

/**
 * Sets `traceparent` (and `tracestate`) of `ctx` on outgoing gRPC metadata; returns it.
 * @public
 */
export function injectIntoMetadata<M extends GrpcMetadataLike>(metadata: M, ctx: Context = context.active()): M {
  propagation.inject(ctx, metadata, metadataSetter);
  return metadata;
}

/**
 * The remote parent in an MCP request's `params._meta` (`traceparent` / `tracestate`, SEP-414).
 * @public
 */
export function extractFromMcpMeta(meta: Readonly<Record<string, unknown>> | undefined): Context {
  return meta ? propagation.extract(ROOT_CONTEXT, meta, metaGetter) : ROOT_CONTEXT;
}

/**
 * `_meta` for an outgoing MCP request with `traceparent` / `tracestate` of
 * `ctx` added (a copy: the given object is not changed). Needed for stdio,
 * harmless over HTTP.
 * @public
 */
export function withTraceMeta(
  meta: Readonly<Record<string, unknown>> | undefined,
  ctx: Context = context.active(),
): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...meta };
  propagation.inject(ctx, copy, recordSetter);
  return copy;
}

/**
 * A `fetch` that adds `traceparent` / `tracestate` of the context active at
 * call time to every request: for the MCP client transport
 * (`new StreamableHTTPClientTransport(url, { fetch: tracePropagatingFetch() })`)
 * and the data-plane client. Without an active span it is the plain fetch.
 * @public
 */
export function tracePropagatingFetch(base: typeof fetch = globalThis.fetch): typeof fetch {
  return (input, init) => {
    const active = context.active();
    if (!hasValidSpan(active)) return base(input, init);
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    propagation.inject(active, headers, headersObjectSetter);
    return base(input, { ...init, headers });
  };
}

const headersObjectSetter: TextMapSetter<Headers> = {
  set: (carrier, key, value) => carrier.set(key, value),
};

/**
 * True when `ctx` holds a span (local or remote) with valid ids: something to propagate.
 * @public
 */
export function hasValidSpan(ctx: Context): boolean {
  const spanContext = trace.getSpanContext(ctx);
  return spanContext !== undefined && isSpanContextValid(spanContext);
}
