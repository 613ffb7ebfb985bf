import { createHash } from 'node:crypto';
import { IDEMPOTENCY_KEY_PARAM } from './idempotency-key.decorator';
import { canonicalJson } from './canonical-json';

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Primary key of an idempotency record: SHA-256 of (caller, method, idempotency_key), unambiguously joined. */
export function idempotencyKeyHash(caller: string, method: string, idempotencyKey: string): string {
  return sha256Hex(JSON.stringify([caller, method, idempotencyKey]));
}

/** SHA-256 of the params without idempotency_key: what a retry must repeat exactly. */
export function requestHash(params: unknown): string {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return sha256Hex(canonicalJson(params));
  const { [IDEMPOTENCY_KEY_PARAM]: _key, ...rest } = params as Record<string, unknown>;
  return sha256Hex(canonicalJson(rest));
}
