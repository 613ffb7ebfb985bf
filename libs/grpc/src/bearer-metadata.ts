import { Metadata } from '@grpc/grpc-js';
import { bearerHeader } from '@s2sp/auth';

/**
 * gRPC metadata carrying `token` as `authorization: Bearer …` (added to `metadata` when given).
 * @public
 */
export function bearerMetadata(token: string, metadata: Metadata = new Metadata()): Metadata {
  metadata.set('authorization', bearerHeader(token));
  return metadata;
}
