import { join } from 'node:path';

/**
 * Proto files of the S2SP contract (packages s2sp.v1 and s2sp.v2), relative to {@link PROTO_ROOT} (use with includeDirs).
 * @public
 */
export const PROTO_FILES: readonly string[] = [
  's2sp/v1/common.proto',
  's2sp/v1/tool.proto',
  's2sp/v1/agent.proto',
  's2sp/v1/contract.proto',
  's2sp/v1/field_options.proto',
  's2sp/v2/tool.proto',
  's2sp/v2/agent.proto',
];

/**
 * Absolute path of the folder holding s2sp/v1/*.proto: the package's own
 * `proto/` (shipped with it; `npm run build` copies the repository's proto/ there).
 * @internal
 */
export const PROTO_ROOT: string = join(__dirname, '..', 'proto');

/** Absolute paths of {@link PROTO_FILES}. */
export const PROTO_FILE_PATHS: readonly string[] = PROTO_FILES.map((file) => join(PROTO_ROOT, file));
