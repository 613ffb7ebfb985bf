import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { Observable } from 'rxjs';
import { GrpcTelemetryInterceptor, isGrpcMetadataLike } from './grpc-telemetry.interceptor';
import { HttpTelemetryInterceptor } from './http-telemetry.interceptor';
import { JSON_RPC_CONTEXT, JsonRpcTelemetryInterceptor } from './json-rpc-telemetry.interceptor';
import { isMcpContextLike, McpToolTelemetryInterceptor } from './mcp-tool-telemetry.interceptor';

/**
 * The one global interceptor TelemetryModule registers (APP_INTERCEPTOR):
 * sends each call to the interceptor of its kind — HTTP route, JSON-RPC
 * method, gRPC method, MCP tool — and lets anything else through untouched.
 * @public
 */
@Injectable()
export class TelemetryInterceptor implements NestInterceptor {
  constructor(
    private readonly http: HttpTelemetryInterceptor,
    private readonly jsonRpc: JsonRpcTelemetryInterceptor,
    private readonly grpc: GrpcTelemetryInterceptor,
    private readonly mcp: McpToolTelemetryInterceptor,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const type = context.getType<string>();
    if (type === 'http') return this.http.intercept(context, next);
    if (type === JSON_RPC_CONTEXT) return this.jsonRpc.intercept(context, next);
    if (type === 'rpc') {
      const rpcContext: unknown = context.switchToRpc().getContext();
      if (isMcpContextLike(rpcContext)) return this.mcp.intercept(context, next);
      if (isGrpcMetadataLike(rpcContext)) return this.grpc.intercept(context, next);
    }
    return next.handle();
  }
}
