// gRPC clients for the agents tests: @grpc/grpc-js with @grpc/proto-loader and
// the project's PROTO_LOADER_OPTIONS, exactly as any other client would dial.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath as healthProtoPath } from 'grpc-health-check';
import { PROTO_FILES, PROTO_LOADER_OPTIONS } from '@s2sp/contracts';
import { bearerFor, type TestTokenRequest } from './tokens';

export type Message = Record<string, any>;
type Unary = (
  request: Message,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: (error: grpc.ServiceError | null, value: Message) => void,
) => grpc.ClientUnaryCall;
export type ServiceClient = grpc.Client & Record<string, any>;

const s2sp = grpc.loadPackageDefinition(protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS })) as any;
const health = grpc.loadPackageDefinition(
  protoLoader.loadSync(healthProtoPath, { keepCase: true, longs: String, enums: String, defaults: true }),
) as any;

export interface AgentsClients {
  tools: ServiceClient;
  /** s2sp.v2.ToolService (InvokeTool with a typed result). */
  toolsV2: ServiceClient;
  agents: ServiceClient;
  /** s2sp.v2.AgentService (ListTasks). */
  agentsV2: ServiceClient;
  health: ServiceClient;
  close(): void;
}

/**
 * Clients of s2sp.v1.ToolService, s2sp.v1.AgentService, s2sp.v2.ToolService, s2sp.v2.AgentService and grpc.health.v1.Health
 * at `address` (host:port). Every call carries the test caller's token for the
 * agents (`auth` overrides it; `null` sends none) unless its metadata already
 * has an `authorization`.
 */
export function connectAgents(address: string, auth: Partial<TestTokenRequest> | null = {}): AgentsClients {
  const credentials = grpc.credentials.createInsecure();
  const options =
    auth === null ? {} : { interceptors: [bearerInterceptor(bearerFor({ audience: 'agents', ...auth }))] };
  const tools = new s2sp.s2sp.v1.ToolService(address, credentials, options) as ServiceClient;
  const agents = new s2sp.s2sp.v1.AgentService(address, credentials, options) as ServiceClient;
  const toolsV2 = new s2sp.s2sp.v2.ToolService(address, credentials, options) as ServiceClient;
  const agentsV2 = new s2sp.s2sp.v2.AgentService(address, credentials, options) as ServiceClient;
  const healthClient = new health.grpc.health.v1.Health(address, credentials) as ServiceClient;
  return {
    tools,
    toolsV2,
    agents,
    agentsV2,
    health: healthClient,
    close() {
      tools.close();
      toolsV2.close();
      agents.close();
      agentsV2.close();
      healthClient.close();
    },
  };
}

/** Adds `authorization` to calls that have none; waits for the token before the call starts. */
function bearerInterceptor(authorization: Promise<string>): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        authorization.then(
          (value) => {
            if (metadata.get('authorization').length === 0) metadata.set('authorization', value);
            next(metadata, listener);
          },
          () => next(metadata, listener),
        );
      },
    });
}

export interface CallOptions {
  /** gRPC deadline: a Date, or milliseconds from now. */
  deadlineMs?: number;
  metadata?: grpc.Metadata;
}

/** Calls a unary method; resolves with the response, rejects with the grpc ServiceError. */
export function unary(
  client: ServiceClient,
  method: string,
  request: Message,
  options: CallOptions = {},
): Promise<Message> {
  const callOptions: grpc.CallOptions =
    options.deadlineMs === undefined ? {} : { deadline: Date.now() + options.deadlineMs };
  return new Promise((resolve, reject) =>
    (client[method] as Unary).call(
      client,
      request,
      options.metadata ?? new grpc.Metadata(),
      callOptions,
      (error, value) => (error ? reject(error) : resolve(value)),
    ),
  );
}

/** Calls a unary method that must fail; resolves with its ServiceError (and fails if it succeeds). */
export async function unaryError(
  client: ServiceClient,
  method: string,
  request: Message,
  options: CallOptions = {},
): Promise<grpc.ServiceError> {
  try {
    const value = await unary(client, method, request, options);
    throw new Error(`${method} was expected to fail but answered ${JSON.stringify(value).slice(0, 300)}`);
  } catch (error) {
    if (isServiceError(error)) return error;
    throw error;
  }
}

/** Reads a server stream to its end; resolves with the messages, rejects with the stream's error. */
export function readStream(call: grpc.ClientReadableStream<Message>): Promise<Message[]> {
  const messages: Message[] = [];
  return new Promise((resolve, reject) => {
    call.on('data', (message: Message) => messages.push(message));
    call.on('error', reject);
    call.on('end', () => resolve(messages));
  });
}

export function isServiceError(error: unknown): error is grpc.ServiceError {
  return (
    typeof error === 'object' &&
    error !== null &&
    typeof (error as grpc.ServiceError).code === 'number' &&
    'metadata' in error
  );
}

/** The first value of a trailing-metadata key, as a string. */
export function trailer(error: grpc.ServiceError, key: string): string | undefined {
  const [value] = error.metadata?.get(key) ?? [];
  return value === undefined ? undefined : String(value);
}

export { grpc };
