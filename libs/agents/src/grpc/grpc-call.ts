import { Metadata } from '@grpc/grpc-js';
import { GRPC_ERROR_METADATA } from '@s2sp/contracts';
import { GRPC_CATALOG_METADATA } from '@s2sp/contracts/internal';

/** What Nest hands a gRPC handler as its third argument (a grpc-js server call). */
export interface GrpcServerCall {
  getDeadline(): Date | number;
  cancelled?: boolean;
  on(event: 'cancelled', listener: () => void): unknown;
  off?(event: 'cancelled', listener: () => void): unknown;
  removeListener?(event: 'cancelled', listener: () => void): unknown;
  /** Sends the response headers (at most once, before the answer). */
  sendMetadata?(metadata: Metadata): void;
}

/** The call's gRPC deadline as epoch ms; undefined when the client set none. */
export function grpcDeadlineOf(call: GrpcServerCall | undefined): number | undefined {
  const deadline = call?.getDeadline();
  if (deadline === undefined) return undefined;
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

/** An AbortSignal that fires when the gRPC client cancels the call (or its deadline passes). */
export function abortOnCancel(call: GrpcServerCall | undefined): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  if (!call) return { signal: controller.signal, dispose: () => undefined };
  const onCancelled = () => controller.abort(new Error('the gRPC client cancelled the call'));
  if (call.cancelled) onCancelled();
  else call.on('cancelled', onCancelled);
  return {
    signal: controller.signal,
    dispose: () => {
      if (call.off) call.off('cancelled', onCancelled);
      else call.removeListener?.('cancelled', onCancelled);
    },
  };
}

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** W3C trace context from the `traceparent` request metadata, if valid. */
export function traceFromMetadata(
  metadata: Metadata | undefined,
): { traceId: string; spanId: string; flags: number } | undefined {
  const [value] = metadata?.get(GRPC_ERROR_METADATA.TRACEPARENT) ?? [];
  if (typeof value !== 'string') return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match || /^0+$/.test(match[1])) return undefined;
  return { traceId: match[1], spanId: match[2], flags: parseInt(match[3], 16) };
}

/** Tells the caller, in the response headers, which surfaces the answer was made with (see SurfaceRegistry.fingerprint). */
export function sendSurfacesFingerprint(call: GrpcServerCall | undefined, fingerprint: string): void {
  if (!call?.sendMetadata) return;
  const headers = new Metadata();
  headers.set(GRPC_CATALOG_METADATA.SURFACES_FINGERPRINT, fingerprint);
  call.sendMetadata(headers);
}
