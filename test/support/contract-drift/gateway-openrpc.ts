import 'reflect-metadata';
import { type JsonRpcMethodMetadata, type OpenRpcDocument } from '@s2sp/json-rpc/internal';
import { buildOpenRpcDocument } from '../../../libs/json-rpc/src/openrpc/openrpc-document';
import { JSON_RPC_METHOD_METADATA } from '../../../libs/json-rpc/src/json-rpc-method.decorator';
import { AgentMethods } from '../../../libs/gateway/src/methods/agent.methods';
import { ResourcesMethods } from '../../../libs/gateway/src/methods/resources.methods';
import { ToolsMethods } from '../../../libs/gateway/src/methods/tools.methods';

/** The providers that declare the gateway's JSON-RPC methods. */
export const GATEWAY_METHOD_PROVIDERS: ReadonlyArray<new (...args: never[]) => object> = [
  AgentMethods,
  ToolsMethods,
  ResourcesMethods,
];

/** The @JsonRpcMethod metadata declared on the given providers' methods. */
export function declaredMethods(
  providers: ReadonlyArray<new (...args: never[]) => object> = GATEWAY_METHOD_PROVIDERS,
): JsonRpcMethodMetadata[] {
  return providers.flatMap((provider) =>
    Object.getOwnPropertyNames(provider.prototype)
      .map(
        (name) =>
          Reflect.getMetadata(JSON_RPC_METHOD_METADATA, (provider.prototype as Record<string, object>)[name]) as
            JsonRpcMethodMetadata | undefined,
      )
      .filter((metadata): metadata is JsonRpcMethodMetadata => metadata !== undefined),
  );
}

/**
 * The OpenRPC document rpc.discover publishes for the gateway's methods,
 * built by the same function from the same DTO classes and result schemas,
 * without starting the gateway.
 */
export function gatewayOpenRpcDocument(): OpenRpcDocument {
  return buildOpenRpcDocument(declaredMethods(), { title: 'S2SP gateway', version: 'contract-drift' });
}
