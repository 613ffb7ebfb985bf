import type { ProtoStruct, ProtoTimestamp } from '@s2sp/contracts';

/**
 * The s2sp.v1 messages the gateway sends and receives, in the shape
 * @grpc/proto-loader produces with PROTO_LOADER_OPTIONS: snake_case fields,
 * enums as their proto names, 64-bit integers as decimal strings, unset
 * messages as null. Only the fields the gateway reads or writes are typed.
 */
export type ProtoLong = string | number;

export interface TraceContextMessage {
  trace_id?: string;
  span_id?: string;
  parent_span_id?: string;
  trace_flags?: number;
  trace_state?: string;
}

export interface AuthContextMessage {
  subject: string;
  client_id?: string;
  scopes: string[];
}

export interface ResourceUsageMessage {
  tokens_in_context?: ProtoLong;
  tokens_kept_out?: ProtoLong;
  model_input_tokens?: ProtoLong;
  model_output_tokens?: ProtoLong;
  tool_calls?: number;
  wall_time_ms?: ProtoLong;
  data_plane_bytes?: ProtoLong;
  rows_in_context?: ProtoLong;
  rows_kept_out?: ProtoLong;
  cost_microdollars?: ProtoLong;
}

export interface ErrorInfoMessage {
  code?: number;
  message?: string;
  recovery_hint?: string;
  details?: ProtoStruct | null;
}

export interface DataPlaneRefMessage {
  mode?: string;
  resource_url?: string;
  expires_at?: ProtoTimestamp | null;
  abstract_domains?: string[];
  body_domains?: string[];
  total_rows?: ProtoLong;
}

// ---- ToolService ----

export interface ToolDescriptorMessage {
  name: string;
  server: string;
  description: string;
  input_schema?: ProtoStruct | null;
  output_schema?: ProtoStruct | null;
  mutation_class?: string;
  kind?: string;
  version?: string;
  title?: string;
  required_scopes?: string[];
}

export interface ListToolsRequestMessage {
  cursor: string;
  page_size: number;
  server: string;
}

export interface ListToolsResponseMessage {
  tools?: ToolDescriptorMessage[];
  next_cursor?: string;
}

export interface ToolInvocationRequestMessage {
  invocation_id: string;
  tool_name: string;
  input_params: ProtoStruct;
  caller_auth: AuthContextMessage;
  /** Not sent by the gateway: its call's deadline travels as the gRPC deadline. */
  deadline?: ProtoTimestamp;
  trace?: TraceContextMessage;
  server: string;
}

export interface ToolInvocationResponseMessage {
  invocation_id?: string;
  status?: string;
  output?: ProtoStruct | null;
  error_message?: string;
  error_code?: number;
}

export interface McpServerStatusMessage {
  id?: string;
  url?: string;
  connected?: boolean;
  circuit?: string;
  tool_count?: number;
  last_error?: string;
  tools_refreshed_at?: ProtoTimestamp | null;
}

export interface ListServersResponseMessage {
  servers?: McpServerStatusMessage[];
}

// ---- AgentService ----

export interface ResourceCallStepMessage {
  tool: string;
  server: string;
  arguments: ProtoStruct;
  abstract_domains: string[];
  mode: string;
}

export interface FilterStepMessage {
  input_step_id: string;
  predicate: ProtoStruct;
}

export interface ConsumerCallStepMessage {
  tool: string;
  server: string;
  arguments: ProtoStruct;
  column_mapping: Record<string, string>;
  input_step_id: string;
}

export interface PlanStepMessage {
  step_id: string;
  depends_on: string[];
  resource_call?: ResourceCallStepMessage;
  filter?: FilterStepMessage;
  consumer_call?: ConsumerCallStepMessage;
}

export interface ExecutionConstraintsMessage {
  max_steps?: number;
  max_recursion_depth?: number;
  token_budget?: number;
  cost_budget_microdollars?: ProtoLong;
  permitted_tools?: string[];
  prohibited_actions?: string[];
}

export interface AgentTaskMessage {
  task_id: string;
  agent_type: string;
  objective: { natural_language: string };
  constraints?: ExecutionConstraintsMessage;
  trace?: TraceContextMessage;
  auth: AuthContextMessage;
  schema_version: number;
  plan: PlanStepMessage[];
  idempotency_key: string;
}

export interface SubmitTaskResponseMessage {
  task_id?: string;
  status?: string;
  estimated_completion_ms?: ProtoLong;
  trace?: TraceContextMessage | null;
}

export interface ToolInvocationRecordMessage {
  invocation_id?: string;
  tool_name?: string;
  server?: string;
  status?: string;
  usage?: ResourceUsageMessage | null;
  data_plane?: DataPlaneRefMessage | null;
  started_at?: ProtoTimestamp | null;
  finished_at?: ProtoTimestamp | null;
}

export interface AgentStepResultMessage {
  task_id?: string;
  step_number?: number;
  type?: string;
  outcome?: string;
  payload?: ProtoStruct | null;
  tool_calls?: ToolInvocationRecordMessage[];
  usage?: ResourceUsageMessage | null;
  trace?: TraceContextMessage | null;
  plan_step_id?: string;
  summary?: string;
  error?: ErrorInfoMessage | null;
  started_at?: ProtoTimestamp | null;
  finished_at?: ProtoTimestamp | null;
}

export interface TaskSnapshotMessage {
  task_id?: string;
  status?: string;
  steps?: AgentStepResultMessage[];
  usage?: ResourceUsageMessage | null;
  result?: ProtoStruct | null;
  error?: ErrorInfoMessage | null;
  created_at?: ProtoTimestamp | null;
  updated_at?: ProtoTimestamp | null;
  completed_at?: ProtoTimestamp | null;
  trace?: TraceContextMessage | null;
}

export interface GetTaskResponseMessage {
  task?: TaskSnapshotMessage | null;
}

export interface CancelTaskRequestMessage {
  task_id: string;
  mode: string;
  reason: string;
}

export interface CancelTaskResponseMessage {
  task_id?: string;
  status?: string;
}
