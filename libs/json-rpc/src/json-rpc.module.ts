import { asyncOptionsProviders } from '@s2sp/platform/internal';
import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { APP_GUARD, DiscoveryModule } from '@nestjs/core';
import { JsonRpcCallExecutor } from './json-rpc-call-executor';
import { JsonRpcDispatcher } from './json-rpc-dispatcher';
import { JsonRpcHttpEndpoint } from './json-rpc-http.endpoint';
import { JsonRpcMethodRegistry } from './json-rpc-method-registry';
import {
  JSON_RPC_MODULE_OPTIONS,
  resolveJsonRpcOptions,
  type JsonRpcModuleAsyncOptions,
  type JsonRpcModuleOptions,
} from './json-rpc-module-options';
import { RpcDiscoverHandler } from './openrpc/rpc-discover.handler';
import { ParamsBindingGuard } from './params-binding.guard';

const CORE_PROVIDERS: Provider[] = [
  JsonRpcMethodRegistry,
  JsonRpcCallExecutor,
  JsonRpcDispatcher,
  RpcDiscoverHandler,
  JsonRpcHttpEndpoint,
  { provide: APP_GUARD, useClass: ParamsBindingGuard },
];
// RpcDiscoverHandler: the OpenRPC document, for an application that publishes it elsewhere too (e.g. a schema registry).
const EXPORTS = [JsonRpcDispatcher, JsonRpcMethodRegistry, RpcDiscoverHandler, JSON_RPC_MODULE_OPTIONS];

/**
 * JSON-RPC 2.0 endpoint (POST /rpc) serving every @JsonRpcMethod found on the
 * application's providers and controllers. On Express, create the app with `bodyParser: false`.
 * @public
 */
@Module({})
export class JsonRpcModule {
  static forRoot(options: JsonRpcModuleOptions = {}): DynamicModule {
    return {
      module: JsonRpcModule,
      imports: [DiscoveryModule],
      providers: [{ provide: JSON_RPC_MODULE_OPTIONS, useValue: resolveJsonRpcOptions(options) }, ...CORE_PROVIDERS],
      exports: EXPORTS,
    };
  }

  static forRootAsync(options: JsonRpcModuleAsyncOptions): DynamicModule {
    return {
      module: JsonRpcModule,
      imports: [DiscoveryModule, ...(options.imports ?? [])],
      providers: [
        ...asyncOptionsProviders('JsonRpcModule', JSON_RPC_MODULE_OPTIONS, options, resolveJsonRpcOptions),
        ...CORE_PROVIDERS,
      ],
      exports: EXPORTS,
    };
  }
}
