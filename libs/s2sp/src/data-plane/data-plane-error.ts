import type { ServerResponse } from 'node:http';
import { DATABASE_RETRY_AFTER_SECONDS } from '@s2sp/platform/internal';

/** Stable error codes of the data plane, answered as `{ error: { code, message } }`. */
export type DataPlaneErrorCode =
  | 'RESOURCE_NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'PERMISSION_DENIED'
  | 'MALFORMED_JSON'
  | 'INVALID_REQUEST'
  | 'UNKNOWN_COLUMN'
  | 'UNKNOWN_ROW_ID'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'RESOURCE_NOT_READY'
  | 'STORE_UNAVAILABLE'
  | 'INTERNAL_ERROR';

export class DataPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly code: DataPlaneErrorCode,
    message: string,
    /** Sent as `Retry-After` when set. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'DataPlaneError';
  }

  static notFound(): DataPlaneError {
    return new DataPlaneError(404, 'RESOURCE_NOT_FOUND', 'No such resource: it is unknown, expired or already used.');
  }

  /** The store's database cannot be reached (restarting, cut off); a claim that did not commit left the resource usable. */
  static storeUnavailable(): DataPlaneError {
    return new DataPlaneError(
      503,
      'STORE_UNAVAILABLE',
      'The resource store is unavailable right now; retry after the time in Retry-After.',
      DATABASE_RETRY_AFTER_SECONDS,
    );
  }

  /** The resource exists but its table is not stored yet (see ResourceTableNotStoredError); it was not consumed. */
  static notReady(message: string): DataPlaneError {
    return new DataPlaneError(503, 'RESOURCE_NOT_READY', message, 1);
  }
}

/** Writes `error` as the data plane's `{ error: { code, message } }` body, on node's response. */
export function sendDataPlaneError(response: ServerResponse, error: DataPlaneError): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const body = JSON.stringify({ error: { code: error.code, message: error.message } });
  response.writeHead(error.status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    ...(error.retryAfterSeconds === undefined ? {} : { 'retry-after': String(error.retryAfterSeconds) }),
  });
  response.end(body);
}
