import { AllowAnonymous } from '@s2sp/auth';
import { Inject, Injectable, SetMetadata } from '@nestjs/common';
import { JSON_RPC_METHOD_METADATA, type JsonRpcMethodMetadata } from '../json-rpc-method.decorator';
import { JsonRpcMethodRegistry } from '../json-rpc-method-registry';
import { JSON_RPC_MODULE_OPTIONS, type ResolvedJsonRpcModuleOptions } from '../json-rpc-module-options';
import { buildOpenRpcDocument, type OpenRpcDocument } from './openrpc-document';

/** @internal */
export const RPC_DISCOVER = 'rpc.discover';

const discoverMetadata: JsonRpcMethodMetadata = {
  name: RPC_DISCOVER,
  summary: 'OpenRPC description of this service',
  idempotent: true,
};

/**
 * Built-in rpc.discover (OpenRPC service discovery); the document lists the application's methods.
 * @internal
 */
@Injectable()
export class RpcDiscoverHandler {
  private document?: OpenRpcDocument;

  constructor(
    private readonly registry: JsonRpcMethodRegistry,
    @Inject(JSON_RPC_MODULE_OPTIONS) private readonly options: ResolvedJsonRpcModuleOptions,
  ) {}

  // SetMetadata directly: @JsonRpcMethod refuses names in the reserved rpc. namespace.
  @SetMetadata(JSON_RPC_METHOD_METADATA, discoverMetadata)
  @AllowAnonymous()
  discover(): OpenRpcDocument {
    this.document ??= buildOpenRpcDocument(
      this.registry
        .list()
        .map((method) => method.metadata)
        .filter((metadata) => metadata.name !== RPC_DISCOVER),
      this.options.info,
    );
    return this.document;
  }
}
