// @s2sp/agents: the platform's agents as a Nest module (AgentsModule) and a ready-made
// gRPC microservice (startAgents), with the seams a deployment extends.
export {
  serveAgents,
  startAgents,
  type RunningAgents,
  type ServeAgentsOptions,
  type StartAgentsOptions,
} from './start-agents';
export { AgentsModule, type AgentsModuleAsyncOptions, type AgentsModuleExtras } from './agents.module';
export {
  agentsConfigFromEnv,
  type McpServerEndpoint,
  type McpRootEntry,
  type SamplingConfig,
  type AgentsBreakerConfig,
  type AgentsMcpConfig,
  type McpProtocolMode,
  type AgentsDeadlineConfig,
  type TaskListConfig,
  type AgentsConfig,
} from './agents.config';
export { AGENTS_DATABASE } from './agents.tokens';
export { TASK_PLANNER, type PlannerCallOptions, type PlannerDecision, type TaskPlanner } from './tasks/task-planner';
export { DeclarativePlanner } from './tasks/declarative-planner';
export { PlannerContext, type ContextEntry, type ContextSource } from './tasks/planner-context';
export type {
  ConsumerCallPlanStep,
  FilterPlanStep,
  PlanStep,
  ResourceCallPlanStep,
  TaskConstraints,
  TaskDefinition,
  TaskObjective,
} from './tasks/task-definition';
export { MODEL_PROVIDER, type ModelProvider, type SamplingRequestContext } from './sampling/model-provider';
export { RefusingModelProvider } from './sampling/refusing-model-provider';
export { type ModelApi, type ModelEndpointConfig } from './models/model-endpoint-config';
export { HttpModelProvider, type ModelHttpRequest } from './models/http-model-provider';
export { OpenAiChatModelProvider } from './models/openai-chat-model-provider';
export { AnthropicMessagesModelProvider } from './models/anthropic-messages-model-provider';
export { ModelEndpointError } from './models/model-http-call';
export { SAMPLING_POLICY, type SamplingDecision, type SamplingPolicy } from './sampling/sampling-policy';
export { ConfiguredSamplingPolicy } from './sampling/configured-sampling-policy';
export {
  TASK_EVENTS,
  type TaskEvents,
  type RemoteTaskFollower,
  type RemoteCancelRequest,
  type RemoteCancelHandler,
} from './tasks/events/task-events';
export { TASK_LEASES, type TaskLeases } from './tasks/events/task-leases';
// The approval policy and the audit are AuthModule's seams (AgentsModuleExtras' approvalProvider, auditSink).
export { APPROVAL_PROVIDER, AUDIT_SINK, type ApprovalProvider, type AuditSink } from '@s2sp/auth';
export {
  type StepRecord,
  type TaskStatusName,
  type StepTypeName,
  type StepOutcomeName,
  type ToolCallRecord,
} from './tasks/task-records';
export { type TraceRecord } from './grpc/trace-context';
export { type CancelMode } from './tasks/task-execution';
export { type UsageRecord } from './common/usage';
export { type TaskErrorInfo } from './tasks/agent-errors';
export { type DataPlaneRefRecord } from './tools/data-plane-ref';
