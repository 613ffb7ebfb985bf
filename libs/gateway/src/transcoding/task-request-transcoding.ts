import { v1 } from '@s2sp/contracts';
import { toJsonObject } from '@s2sp/contracts/internal';
import type { JsonRpcCallContext } from '@s2sp/json-rpc';
import type { CancelTaskParams } from '../methods/dto/cancel-task.params';
import type { PlanStepDto } from '../methods/dto/plan-step.dto';
import type { ExecutionConstraintsDto, SubmitTaskParams } from '../methods/dto/submit-task.params';
import { authContextOf, traceContextOf } from './call-identity';
import { ENUM_PREFIX, jsonToProtoEnum } from './proto-enum';

/** agent_type of a task that carries a declarative S2SP plan. */
export const S2SP_PIPELINE_AGENT = 's2sp-pipeline';
/** AgentTask.schema_version the gateway writes. */
export const AGENT_TASK_SCHEMA_VERSION = 1;

/** agent.submitTask params -> AgentTask (caller, trace context and task id added by the gateway). */
export function agentTaskFromParams(params: SubmitTaskParams, ctx: JsonRpcCallContext, taskId: string): v1.AgentTask {
  return v1.AgentTask.create({
    task_id: taskId,
    agent_type: S2SP_PIPELINE_AGENT,
    objective: { natural_language: params.objective },
    constraints: params.constraints ? constraintsToProto(params.constraints) : undefined,
    trace: traceContextOf(ctx),
    auth: authContextOf(ctx),
    schema_version: AGENT_TASK_SCHEMA_VERSION,
    plan: params.plan.map(planStepToProto),
    idempotency_key: params.idempotency_key ?? '',
  });
}

export function planStepToProto(step: PlanStepDto): v1.PlanStep {
  const message = v1.PlanStep.create({ step_id: step.step_id, depends_on: [...(step.depends_on ?? [])] });
  if (step.resource_call) {
    const call = step.resource_call;
    message.resource_call = {
      server: call.server,
      tool: call.tool,
      arguments: toJsonObject(call.arguments ?? {}),
      abstract_domains: [...(call.abstract_domains ?? [])],
      mode: jsonToProtoEnum(call.mode, v1.DataPlaneMode, ENUM_PREFIX.DATA_PLANE_MODE),
    };
  } else if (step.filter) {
    message.filter = { input_step_id: step.filter.input_step_id, predicate: toJsonObject(step.filter.predicate) };
  } else if (step.consumer_call) {
    const call = step.consumer_call;
    message.consumer_call = {
      server: call.server,
      tool: call.tool,
      arguments: toJsonObject(call.arguments ?? {}),
      column_mapping: { ...(call.column_mapping ?? {}) },
      input_step_id: call.input_step_id,
    };
  }
  return message;
}

function constraintsToProto(constraints: ExecutionConstraintsDto): v1.ExecutionConstraints {
  return v1.ExecutionConstraints.create({
    max_steps: constraints.max_steps,
    max_recursion_depth: constraints.max_recursion_depth,
    token_budget: constraints.token_budget,
    cost_budget_microdollars:
      constraints.cost_budget_microdollars === undefined ? undefined : String(constraints.cost_budget_microdollars),
    permitted_tools: constraints.permitted_tools ? [...constraints.permitted_tools] : undefined,
    prohibited_actions: constraints.prohibited_actions ? [...constraints.prohibited_actions] : undefined,
  });
}

export function cancelTaskRequest(params: CancelTaskParams): v1.CancelTaskRequest {
  return {
    task_id: params.task_id,
    mode: jsonToProtoEnum(params.mode, v1.CancelMode, ENUM_PREFIX.CANCEL_MODE),
    reason: params.reason ?? '',
  };
}
