/** Stable error codes of the data plane, answered as `{ error: { code, message } }`. */
export type DataPlaneErrorCode =
  | 'RESOURCE_NOT_FOUND'
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'MALFORMED_JSON'
  | 'INVALID_REQUEST'
  | 'UNKNOWN_COLUMN'
  | 'UNKNOWN_ROW_ID'
  | 'PAYLOAD_TOO_LARGE'
  | 'UNSUPPORTED_MEDIA_TYPE'
  | 'INTERNAL_ERROR';

export class DataPlaneError extends Error {
  constructor(
    readonly status: number,
    readonly code: DataPlaneErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'DataPlaneError';
  }

  static notFound(): DataPlaneError {
    return new DataPlaneError(404, 'RESOURCE_NOT_FOUND', 'No such resource: it is unknown, expired or already used.');
  }
}
