import type { JsonRpcId, JsonRpcRequest } from './json-rpc.types';

export type EnvelopeCheck =
  | { valid: true; request: JsonRpcRequest }
  /** id is the request's id when it could be read, else null (spec section 5). */
  | { valid: false; id: JsonRpcId; reason: string };

/** Checks one element of the payload against the JSON-RPC 2.0 Request object rules. */
export function checkEnvelope(value: unknown): EnvelopeCheck {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { valid: false, id: null, reason: 'a request must be a JSON object' };
  }
  const candidate = value as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(candidate, 'id');
  if (hasId && !isValidId(candidate.id)) {
    return { valid: false, id: null, reason: 'id must be a string, a number or null' };
  }
  const id = hasId ? (candidate.id as JsonRpcId) : null;
  if (candidate.jsonrpc !== '2.0') return { valid: false, id, reason: 'jsonrpc must be exactly "2.0"' };
  if (typeof candidate.method !== 'string') return { valid: false, id, reason: 'method must be a string' };
  const hasParams = Object.prototype.hasOwnProperty.call(candidate, 'params');
  if (hasParams && (candidate.params === null || typeof candidate.params !== 'object')) {
    return { valid: false, id, reason: 'params must be an array or an object' };
  }
  const request: JsonRpcRequest = { jsonrpc: '2.0', method: candidate.method };
  if (hasParams) request.params = candidate.params as JsonRpcRequest['params'];
  if (hasId) request.id = id;
  return { valid: true, request };
}

export function isNotification(request: JsonRpcRequest): boolean {
  return !Object.prototype.hasOwnProperty.call(request, 'id');
}

function isValidId(id: unknown): boolean {
  return id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}
