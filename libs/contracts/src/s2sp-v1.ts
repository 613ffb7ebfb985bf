/**
 * Package s2sp.v1 as generated from proto/s2sp/v1 by scripts/proto-generate.js:
 * one interface and one codec (encode/decode/create/fromPartial) per message,
 * enums as string literal unions, and the grpc-js definitions of ToolService
 * and AgentService. Import it as a namespace: `import { v1 } from '@s2sp/contracts'`.
 */
/** @public */
export * from './generated/s2sp/v1/common';
export * from './generated/s2sp/v1/tool';
export * from './generated/s2sp/v1/agent';
export { Timestamp } from './generated/google/protobuf/timestamp';
