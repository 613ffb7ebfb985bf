import { Injectable, type CallHandler, type ExecutionContext, type NestInterceptor } from '@nestjs/common';
import type { GrpcMetadataLike } from '../tracing/grpc-metadata-like';
import type { Observable } from 'rxjs';
import { shortServiceName, SpanNames, TelemetryAttributes } from '../semantics/attributes';
import { Telemetry } from '../telemetry';
import { extractFromMetadata } from '../tracing/propagation';
import { callerIdOf, NameCache, observeServerCall, serverSpanAttributes } from './server-call';

/** Metadata key the gateway names its caller with (apps/gateway outgoing-metadata). */
const CALLER_METADATA_KEY = 'x-caller';

interface GrpcMethodNames {
  /** `s2sp.v1.AgentService` */
  service: string;
  method: string;
  /** `AgentService/SubmitTask`: the metric label. */
  label: string;
  spanName: string;
}

/**
 * Server side of a gRPC call in a Nest microservice (context type `rpc`
 * with grpc-js Metadata): the parent from `traceparent` metadata, a
 * `grpc.<Service>/<Method>` span, protocol metrics with protocol `grpc`.
 * Streaming responses end the span when the stream completes.
 * @public
 */
@Injectable()
export class GrpcTelemetryInterceptor implements NestInterceptor {
  private readonly names = new NameCache(grpcMethodNames);

  constructor(private readonly telemetry: Telemetry) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'rpc') return next.handle();
    const metadata: unknown = context.switchToRpc().getContext();
    if (!isGrpcMetadataLike(metadata)) return next.handle();
    const names = this.names.get(grpcPathOf(context));
    return observeServerCall(
      this.telemetry,
      {
        protocol: 'grpc',
        method: names.label,
        spanName: names.spanName,
        parent: extractFromMetadata(metadata),
        attributes: (telemetry) => ({
          ...serverSpanAttributes(telemetry, 'grpc', names.label, grpcCallerId(metadata)),
          [TelemetryAttributes.RPC_SYSTEM]: 'grpc',
          [TelemetryAttributes.RPC_SERVICE]: names.service,
          [TelemetryAttributes.RPC_METHOD]: names.method,
        }),
      },
      next,
    );
  }
}

/**
 * grpc-js Metadata, duck-typed (a second copy of @grpc/grpc-js defeats instanceof).
 * @public
 */
export function isGrpcMetadataLike(value: unknown): value is GrpcMetadataLike {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as GrpcMetadataLike).get === 'function' &&
    typeof (value as GrpcMetadataLike).getMap === 'function'
  );
}

/** `/s2sp.v1.AgentService/SubmitTask` from the grpc-js call (3rd handler argument), else `Class/handler`. */
function grpcPathOf(context: ExecutionContext): string {
  const call = context.getArgByIndex<{ getPath?: () => string } | undefined>(2);
  try {
    const path = call?.getPath?.();
    if (typeof path === 'string' && path.startsWith('/')) return path;
  } catch {
    // not a grpc-js call object
  }
  return `/${context.getClass().name}/${context.getHandler().name}`;
}

function grpcMethodNames(path: string): GrpcMethodNames {
  const [, service = 'unknown', method = 'unknown'] = path.split('/');
  return {
    service,
    method,
    label: `${shortServiceName(service)}/${method}`,
    spanName: SpanNames.grpc(service, method),
  };
}

function grpcCallerId(metadata: GrpcMetadataLike): string | undefined {
  const named = metadata.get(CALLER_METADATA_KEY)[0];
  return callerIdOf(metadata) ?? (typeof named === 'string' ? named : undefined);
}
