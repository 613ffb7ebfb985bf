// @s2sp/grpc — the gRPC side of caller-scoped security (described in docs/auth.md).
export { toRpcException, GrpcAuthGuard } from './grpc-auth.guard';
export * from './bearer-metadata';
