import { Metadata } from '@grpc/grpc-js';
import { bearerHeader } from './bearer';

/** Headers for an outgoing HTTP call (e.g. a data-plane fetch) carrying `token`. */
export function bearerHeaders(token: string, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, authorization: bearerHeader(token) };
}

/** gRPC metadata carrying `token` as `authorization: Bearer …` (added to `metadata` when given). */
export function bearerMetadata(token: string, metadata: Metadata = new Metadata()): Metadata {
  metadata.set('authorization', bearerHeader(token));
  return metadata;
}
