/**
 * JSON-RPC 2.0 wire types (https://www.jsonrpc.org/specification).
 * @public
 */

export type JsonRpcId = string | number | null;

/** A request that passed envelope validation; `id` is absent for notifications. */
export interface JsonRpcRequest {
  jsonrpc: '2.0';
  method: string;
  params?: unknown[] | Record<string, unknown>;
  id?: JsonRpcId;
}

/** @public */
export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccessResponse {
  jsonrpc: '2.0';
  result: unknown;
  id: JsonRpcId;
}

export interface JsonRpcErrorResponse {
  jsonrpc: '2.0';
  error: JsonRpcErrorObject;
  id: JsonRpcId;
}

export type JsonRpcResponse = JsonRpcSuccessResponse | JsonRpcErrorResponse;

/** What one HTTP exchange answers: a response, a batch of them, or nothing (notifications only). */
export type JsonRpcReply = JsonRpcResponse | JsonRpcResponse[] | undefined;
