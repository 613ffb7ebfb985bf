// @s2sp/telemetry — OpenTelemetry across JSON-RPC, gRPC, MCP and the S2SP data plane (described in docs/telemetry.md).

// Bootstrap and module
export * from './config/telemetry-options';
export * from './config/telemetry-options-from-env';
export * from './telemetry';
export * from './telemetry.module';

// Trace context and spans
export * from './tracing/grpc-metadata-like';
export * from './tracing/propagation';
export * from './tracing/errors';
export * from './tracing/global-propagation';
export * from './semantics/attributes';
export * from './clients/client-calls';
export {
  TELEMETRY_IGNORED_ROUTES,
  DEFAULT_IGNORED_ROUTES,
  type HttpRoutePlan,
  type HttpExchange,
  HttpExchangeTelemetry,
} from './http/http-exchange-telemetry';

// Interceptors (TelemetryModule registers TelemetryInterceptor globally)
export * from './interceptors/telemetry.interceptor';
export * from './interceptors/http-telemetry.interceptor';
export * from './interceptors/json-rpc-telemetry.interceptor';
export * from './interceptors/grpc-telemetry.interceptor';
export * from './interceptors/mcp-tool-telemetry.interceptor';
export { CANCELLED } from './interceptors/server-call';

// Metrics
export * from './metrics/telemetry-metrics';
export * from './metrics/prometheus';
export * from './metrics/metrics.controller';
export * from './s2sp/tool-result-facts';

// Logs
export * from './logging/json-logger';
export * from './logging/app-logger';
