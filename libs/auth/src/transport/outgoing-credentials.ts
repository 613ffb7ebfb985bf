import { bearerHeader } from './bearer';

/**
 * Headers for an outgoing HTTP call (e.g. a data-plane fetch) carrying `token`.
 * @public
 */
export function bearerHeaders(token: string, headers: Record<string, string> = {}): Record<string, string> {
  return { ...headers, authorization: bearerHeader(token) };
}
