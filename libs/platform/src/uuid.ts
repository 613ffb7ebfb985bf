import { randomUUID } from 'node:crypto';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Any RFC 9562 UUID in its canonical textual form (any version).
 * @internal
 */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * A UUID version 7 (RFC 9562 §5.7): 48-bit Unix time in ms, then 74 random bits;
 * sorts by creation time. Built on randomUUID, which draws from a cached pool of
 * random bytes (one randomBytes call per id cost several times more on the hot path):
 * its version nibble becomes 7, its variant bits are already RFC 9562's, and the
 * 74 random bits after them are kept.
 * @internal
 */
export function uuidV7(now: number = Date.now()): string {
  const time = Math.floor(now).toString(16).padStart(12, '0');
  const random = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${random.slice(15)}`;
}
