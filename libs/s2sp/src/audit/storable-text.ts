/** What replaces a character PostgreSQL cannot store in `text` or `jsonb`. */
export const UNSTORABLE_CHARACTER_MARK = '\uFFFD';

// NUL (text and jsonb refuse it: SQLSTATE 22021 / 22P05) and unpaired UTF-16 surrogates (not valid UTF-8).
// eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `value` with every string (object keys included, at any depth) made
 * storable: each character PostgreSQL would refuse becomes U+FFFD. An audit
 * row is about what a caller sent, so it must be written whatever they sent;
 * a refused insert would lose the record of exactly the odd requests.
 * @public
 */
export function storable<T>(value: T): T {
  return storableValue(value) as T;
}

function storableValue(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(UNSTORABLE, UNSTORABLE_CHARACTER_MARK);
  if (Array.isArray(value)) return value.map(storableValue);
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableValue(key), storableValue(item)]));
  }
  return value;
}
