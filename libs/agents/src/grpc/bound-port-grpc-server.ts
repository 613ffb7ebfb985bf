import { Server, ServerCredentials, type ChannelOptions } from '@grpc/grpc-js';
import { ServerGrpc, type GrpcOptions } from '@nestjs/microservices';

type NestGrpcOptions = GrpcOptions['options'];

/**
 * Nest's gRPC transport, but it remembers the port it bound, so port 0
 * ("any free port") can be used and reported. Only the channel options the
 * agents use (message and metadata limits) are applied to the grpc-js server.
 */
export class BoundPortGrpcServer extends ServerGrpc {
  private port: number | undefined;
  private server: Server | undefined;
  private address: string | undefined;

  constructor(private grpcOptions: NestGrpcOptions) {
    super(grpcOptions);
  }

  /**
   * Where to listen, in place of the options' `url`, and channel options to add:
   * for a server made before its address is known (serveAgents reads it from the
   * app's configuration, which the app resolves after its transport was given).
   */
  listenAt(url: string, channelOptions: ChannelOptions = {}): void {
    this.address = url;
    this.grpcOptions = {
      ...this.grpcOptions,
      channelOptions: { ...this.grpcOptions.channelOptions, ...channelOptions },
    };
  }

  get boundPort(): number {
    if (this.port === undefined) throw new Error('the gRPC server is not listening yet');
    return this.port;
  }

  override async createClient(): Promise<Server> {
    const channelOptions: ChannelOptions = { ...(this.grpcOptions.channelOptions ?? {}) };
    if (this.grpcOptions.maxReceiveMessageLength)
      channelOptions['grpc.max_receive_message_length'] = this.grpcOptions.maxReceiveMessageLength;
    if (this.grpcOptions.maxSendMessageLength)
      channelOptions['grpc.max_send_message_length'] = this.grpcOptions.maxSendMessageLength;
    if (this.grpcOptions.maxMetadataSize) channelOptions['grpc.max_metadata_size'] = this.grpcOptions.maxMetadataSize;
    const server = new Server(channelOptions);
    const credentials =
      (this.grpcOptions.credentials as ServerCredentials | undefined) ?? ServerCredentials.createInsecure();
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(this.address ?? this.url, credentials, (error, port) => (error ? reject(error) : resolve(port))),
    );
    this.server = server;
    return server;
  }

  /**
   * Refuses new calls and resolves true once the calls in flight (open
   * StreamTask streams among them) have ended, or false at `deadline`, when
   * they are cut off.
   */
  drain(deadline: number): Promise<boolean> {
    const server = this.server;
    if (!server) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const timer = setTimeout(
        () => {
          server.forceShutdown();
          resolve(false);
        },
        Math.max(0, deadline - Date.now()),
      );
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
