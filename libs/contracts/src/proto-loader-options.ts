import type { Options } from '@grpc/proto-loader';
import { dirname } from 'node:path';
import { PROTO_ROOT } from './proto-path';

/**
 * protobufjs ships google/protobuf/{api,descriptor,type,...}.proto as files;
 * struct, timestamp, duration, any, empty and wrappers are bundled in memory.
 * Resolved from proto-loader's location because protobufjs is its dependency, not ours.
 */
export const GOOGLE_PROTOS_DIR: string = dirname(
  require.resolve('protobufjs/package.json', { paths: [dirname(require.resolve('@grpc/proto-loader'))] }),
);

/**
 * The one set of @grpc/proto-loader options for every S2SP gRPC server and client.
 * keepCase: field names stay snake_case as in the .proto files;
 * longs/enums as strings: uint64 counters are '123', enums are 'TASK_STATUS_RUNNING';
 * oneofs: a virtual field names the set member (e.g. PlanStep.kind = 'filter').
 * @public
 */
export const PROTO_LOADER_OPTIONS: Readonly<Options> = Object.freeze({
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT, GOOGLE_PROTOS_DIR],
});
