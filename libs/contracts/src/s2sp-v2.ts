/**
 * Package s2sp.v2 as generated from proto/s2sp/v2 by scripts/proto-generate.js:
 * ToolService.InvokeTool with a typed tool result, ToolService.ListSurfaces,
 * ToolService.ReadResource and AgentService.ListTasks. Served next to s2sp.v1;
 * import it as a namespace: `import { v2 } from '@s2sp/contracts'`.
 */
/** @public */
export * from './generated/s2sp/v2/tool';
export * from './generated/s2sp/v2/agent';
