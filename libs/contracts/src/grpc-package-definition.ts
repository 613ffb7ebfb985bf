import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';

/**
 * What `grpc.loadPackageDefinition` and Nest's `packageDefinition` option take.
 * @public
 */
export type GrpcPackageDefinition = Parameters<typeof import('@grpc/grpc-js').loadPackageDefinition>[0];

/**
 * A generated grpc-js service definition: methods keyed by their camelCase name.
 * @public
 */
export type GeneratedService = Record<string, MethodDefinition<any, any> & { path: string }>;

/**
 * A grpc-js PackageDefinition built from generated service definitions, in the
 * shape @grpc/proto-loader would give (keyed by the fully qualified service
 * name, methods by their proto name with the camelCase one as `originalName`).
 * Nest's gRPC server takes it as `packageDefinition` and finds the handlers of
 * `@GrpcMethod('AgentService', 'SubmitTask')` in it; the messages are encoded
 * and decoded by the generated codecs, not by a run-time proto parser.
 * @public
 */
export function grpcPackageDefinition(...services: GeneratedService[]): GrpcPackageDefinition {
  const definition: Record<string, ServiceDefinition> = {};
  for (const service of services) {
    for (const [camelName, method] of Object.entries(service)) {
      const [, serviceName, methodName] = /^\/([^/]+)\/([^/]+)$/.exec(method.path) ?? [];
      if (!serviceName || !methodName) throw new Error(`not a gRPC method path: ${method.path}`);
      const methods = (definition[serviceName] ??= {});
      (methods as Record<string, MethodDefinition<unknown, unknown>>)[methodName] = {
        ...method,
        originalName: camelName,
      };
    }
  }
  return definition;
}
