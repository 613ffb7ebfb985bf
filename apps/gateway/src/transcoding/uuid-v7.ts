import { randomBytes } from 'node:crypto';

/** A UUID version 7 (RFC 9562): 48-bit ms timestamp, then random bits; sorts by creation time. */
export function uuidV7(now: number = Date.now()): string {
  const bytes = randomBytes(16);
  let time = BigInt(now);
  for (let index = 5; index >= 0; index--) {
    bytes[index] = Number(time & 0xffn);
    time >>= 8n;
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x70; // version 7
  bytes[8] = (bytes[8] & 0x3f) | 0x80; // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
