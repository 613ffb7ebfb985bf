/**
 * s2sp.v1 messages as @grpc/proto-loader decodes them with PROTO_LOADER_OPTIONS
 * (snake_case fields, enums and 64-bit integers as strings, unset messages as
 * null, oneofs named by a virtual `kind` field). Only what the agents read or
 * write is typed; everything from the network is still validated before use.
 */
import type { ProtoStruct, ProtoTimestamp } from '@s2sp/contracts';

export interface TraceContextMessage {
  trace_id?: string;
  span_id?: string;
  parent_span_id?: string;
  trace_flags?: number;
  trace_state?: string;
  baggage?: Record<string, string>;
}

export interface AuthContextMessage {
  subject?: string;
  client_id?: string;
  scopes?: string[];
  tenant_id?: string;
  delegated_credential?: string;
  expires_at?: ProtoTimestamp | null;
}

export interface ListToolsRequestMessage {
  cursor?: string;
  page_size?: number;
  server?: string;
}

export interface ToolInvocationRequestMessage {
  invocation_id?: string;
  tool_name?: string;
  tool_version?: string;
  input_params?: ProtoStruct | null;
  caller_auth?: AuthContextMessage | null;
  deadline?: ProtoTimestamp | null;
  trace?: TraceContextMessage | null;
  mutation_class?: string;
  requires_human_approval?: boolean;
  server?: string;
  count_body_tokens?: boolean;
}

export interface ResourceCallStepMessage {
  tool?: string;
  server?: string;
  arguments?: ProtoStruct | null;
  abstract_domains?: string[];
  mode?: string;
}

export interface FilterStepMessage {
  input_step_id?: string;
  predicate?: ProtoStruct | null;
}

export interface ConsumerCallStepMessage {
  tool?: string;
  server?: string;
  arguments?: ProtoStruct | null;
  column_mapping?: Record<string, string>;
  input_step_id?: string;
}

export interface PlanStepMessage {
  step_id?: string;
  depends_on?: string[];
  kind?: 'resource_call' | 'filter' | 'consumer_call' | string;
  resource_call?: ResourceCallStepMessage | null;
  filter?: FilterStepMessage | null;
  consumer_call?: ConsumerCallStepMessage | null;
}

export interface StructuredGoalMessage {
  name?: string;
  description?: string;
  parameters?: ProtoStruct | null;
}

export interface AgentTaskMessage {
  task_id?: string;
  parent_task_id?: string;
  agent_type?: string;
  objective?: { natural_language?: string; goals?: StructuredGoalMessage[]; success_criteria?: string[] } | null;
  constraints?: {
    max_steps?: number;
    max_recursion_depth?: number;
    token_budget?: number;
    cost_budget_microdollars?: string | number;
    permitted_tools?: string[];
    prohibited_actions?: string[];
  } | null;
  context_refs?: Array<{ uri?: string; description?: string }>;
  trace?: TraceContextMessage | null;
  auth?: AuthContextMessage | null;
  deadline?: ProtoTimestamp | null;
  schema_version?: number;
  plan?: PlanStepMessage[];
  idempotency_key?: string;
}

export interface SubmitTaskRequestMessage {
  task?: AgentTaskMessage | null;
}

export interface GetTaskRequestMessage {
  task_id?: string;
}

export interface CancelTaskRequestMessage {
  task_id?: string;
  mode?: string;
  reason?: string;
}
