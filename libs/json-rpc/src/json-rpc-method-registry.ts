import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, ExternalContextCreator, MetadataScanner, Reflector } from '@nestjs/core';
import type { JsonRpcCallContext } from './json-rpc-call-context';
import { JSON_RPC_METHOD_METADATA, type JsonRpcMethodMetadata } from './json-rpc-method.decorator';

/**
 * Execution context type that guards and interceptors see for JSON-RPC calls.
 * @internal
 */
export const JSON_RPC_CONTEXT_TYPE = 'json-rpc';

/** @internal */
export interface RegisteredJsonRpcMethod {
  readonly metadata: JsonRpcMethodMetadata;
  /** Runs guards, interceptors and the handler itself. */
  readonly invoke: (params: unknown, ctx: JsonRpcCallContext) => Promise<unknown>;
  /** "ClassName.methodName", for logs. */
  readonly handlerName: string;
}

/**
 * Finds every @JsonRpcMethod on providers and controllers once the module graph is built.
 * @internal
 */
@Injectable()
export class JsonRpcMethodRegistry implements OnModuleInit {
  private readonly logger = new Logger('JsonRpc');
  private readonly methods = new Map<string, RegisteredJsonRpcMethod>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
    private readonly contextCreator: ExternalContextCreator,
  ) {}

  onModuleInit(): void {
    const seen = new Set<object>();
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const instance: unknown = wrapper.instance;
      if (!instance || typeof instance !== 'object' || seen.has(instance)) continue;
      seen.add(instance);
      for (const methodName of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance))) {
        const handler = (instance as Record<string, unknown>)[methodName];
        if (typeof handler !== 'function') continue;
        const metadata = this.reflector.get<JsonRpcMethodMetadata | undefined>(JSON_RPC_METHOD_METADATA, handler);
        if (!metadata) continue;
        if (!wrapper.isDependencyTreeStatic()) {
          throw new Error(`JSON-RPC method "${metadata.name}" is on a request-scoped provider, which is not supported`);
        }
        this.add(metadata, instance, methodName, handler as (...args: unknown[]) => unknown);
      }
    }
    this.logger.log(`${this.methods.size} JSON-RPC method(s): ${[...this.methods.keys()].join(', ')}`);
  }

  get(name: string): RegisteredJsonRpcMethod | undefined {
    return this.methods.get(name);
  }

  list(): RegisteredJsonRpcMethod[] {
    return [...this.methods.values()];
  }

  private add(
    metadata: JsonRpcMethodMetadata,
    instance: object,
    methodName: string,
    handler: (...args: unknown[]) => unknown,
  ): void {
    const handlerName = `${instance.constructor.name}.${methodName}`;
    const existing = this.methods.get(metadata.name);
    if (existing) {
      throw new Error(
        `JSON-RPC method "${metadata.name}" is declared twice: ${existing.handlerName} and ${handlerName}`,
      );
    }
    const invoke = this.contextCreator.create(
      instance,
      handler,
      methodName,
      undefined,
      undefined,
      undefined,
      undefined,
      { guards: true, interceptors: true, filters: false },
      JSON_RPC_CONTEXT_TYPE,
    );
    this.methods.set(metadata.name, { metadata, invoke, handlerName });
  }
}
