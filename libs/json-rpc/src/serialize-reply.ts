import { JsonRpcError } from './json-rpc-error';
import type { JsonRpcReply, JsonRpcResponse } from './json-rpc.types';

export interface SerializeReplyOptions {
  traceId?: string;
  onUnserializable?: (response: JsonRpcResponse, error: unknown) => void;
}

/**
 * JSON text of a reply, serializing each response on its own so that one result
 * JSON cannot represent (a BigInt, a cycle) turns into -32603 for that id only.
 */
export function serializeReply(reply: JsonRpcReply, options: SerializeReplyOptions = {}): string | undefined {
  if (reply === undefined) return undefined;
  const one = (response: JsonRpcResponse): string => {
    try {
      return JSON.stringify(response);
    } catch (error) {
      options.onUnserializable?.(response, error);
      const fallback = {
        jsonrpc: '2.0',
        error: JsonRpcError.internalError().toErrorObject(options.traceId),
        id: response.id,
      };
      return JSON.stringify(fallback);
    }
  };
  return Array.isArray(reply) ? `[${reply.map(one).join(',')}]` : one(reply);
}
