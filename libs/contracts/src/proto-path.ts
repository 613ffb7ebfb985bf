import { join } from 'node:path';
import { findUpwards } from './find-upwards';

/** Proto files of the S2SP contract (packages s2sp.v1 and s2sp.v2), relative to {@link PROTO_ROOT} (use with includeDirs). */
export const PROTO_FILES: readonly string[] = [
  's2sp/v1/common.proto',
  's2sp/v1/tool.proto',
  's2sp/v1/agent.proto',
  's2sp/v1/contract.proto',
  's2sp/v1/field_options.proto',
  's2sp/v2/tool.proto',
  's2sp/v2/agent.proto',
];

const MARKER = join('proto', PROTO_FILES[0]);

/**
 * Walks up from startDir to the folder that contains proto/s2sp/v1, so the same
 * code works from libs/contracts/src (ts source) and dist/libs/contracts/src.
 */
export function findProtoRoot(startDir: string = __dirname): string {
  return join(findUpwards(MARKER, startDir, 'S2SP proto root'), 'proto');
}

/** Absolute path of the folder holding s2sp/v1/*.proto. */
export const PROTO_ROOT: string = findProtoRoot();

/** Absolute paths of {@link PROTO_FILES}. */
export const PROTO_FILE_PATHS: readonly string[] = PROTO_FILES.map((file) => join(PROTO_ROOT, file));
