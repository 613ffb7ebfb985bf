/**
 * What telemetry reads and writes of @grpc/grpc-js `Metadata`. Described by shape, so that
 * this package neither installs nor loads gRPC for apps that do not use it.
 * @public
 */
export interface GrpcMetadataLike {
  get(key: string): ReadonlyArray<string | Uint8Array>;
  set(key: string, value: string): void;
  getMap(): Readonly<Record<string, unknown>>;
}
