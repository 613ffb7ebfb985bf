import { JSONRPCClient, type JSONRPCResponse } from 'json-rpc-2.0';

/** A JSON-RPC client of a gateway's POST /rpc, with the caller's Authorization on every request. */
export function gatewayRpcClient(gatewayUrl: string, authorization: string): JSONRPCClient {
  const client: JSONRPCClient = new JSONRPCClient(async (payload) => {
    const response = await fetch(`${gatewayUrl}/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify(payload),
    });
    if (response.status === 200) client.receive((await response.json()) as JSONRPCResponse);
  });
  return client;
}
