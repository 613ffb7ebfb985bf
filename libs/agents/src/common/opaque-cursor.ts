/** An opaque page cursor: base64url of a JSON object. */
export function encodeOpaqueCursor(body: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(body), 'utf8').toString('base64url');
}

/**
 * The JSON object an opaque cursor holds; `invalid()` is thrown for anything
 * longer than maxLength, not base64url, or not a JSON object. Its members are the
 * caller's to check.
 */
export function decodeOpaqueCursor(cursor: string, maxLength: number, invalid: () => Error): Record<string, unknown> {
  if (cursor.length > maxLength || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw invalid();
  return parsed as Record<string, unknown>;
}
