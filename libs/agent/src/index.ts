// @s2sp/agent — S2SP's agent-side layer, for agents built with any TypeScript framework (README.md).
export {
  S2spAgentSession,
  type S2spAgentSessionOptions,
  type S2spArtifact,
  type S2spToolOutput,
} from './s2sp-agent-session';
export { s2spModelTools, type S2spModelTool } from './model-tools';
export { type S2spCallUsage, type S2spSessionUsage } from './usage';
export { type McpClientLike, type McpToolDefinition } from './mcp-client';
export { type McpToolResult } from './mcp-tool-result';
export {
  DataBuffer,
  HandleError,
  type BufferedBody,
  type BufferedResource,
  type DataBufferLimits,
} from './data-buffer';
export { readS2spResourceAnswer, type S2spResourceAnswer } from './resource-answer';
export { s2spToolKindOf, type S2spToolKind } from './tool-kind';
