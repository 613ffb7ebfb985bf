import { Injectable } from '@nestjs/common';
import { RequireScopes } from '@s2sp/auth';
import { PLATFORM_SCOPES } from '@s2sp/contracts';
import { measureTranscoding, Telemetry } from '@s2sp/telemetry';
import { DownstreamCredentials } from '../auth/downstream-credentials.service';
import { JsonRpcError, JsonRpcErrorCode, JsonRpcMethod, type JsonRpcCallContext } from '@s2sp/json-rpc';
import { AgentServiceClient } from '../grpc/agent-service.client';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { agentTaskFromParams, cancelTaskRequest } from '../transcoding/task-request-transcoding';
import {
  cancelTaskResult,
  submitTaskResult,
  taskSnapshotToJson,
  type CancelTaskResult,
  type SubmitTaskResult,
  type TaskSnapshotJson,
} from '../transcoding/task-response-transcoding';
import { uuidV7 } from '@s2sp/platform';
import { CancelTaskParams } from './dto/cancel-task.params';
import { GetTaskParams } from './dto/get-task.params';
import { SubmitTaskParams } from './dto/submit-task.params';
import { CANCEL_TASK_RESULT, SUBMIT_TASK_RESULT, TASK_SNAPSHOT_RESULT } from './results/result-schemas';

/** agent.* -> s2sp.v1.AgentService of the agents. */
@Injectable()
export class AgentMethods {
  constructor(
    private readonly agents: AgentServiceClient,
    private readonly credentials: DownstreamCredentials,
    private readonly telemetry: Telemetry,
  ) {}

  @JsonRpcMethod('agent.submitTask', {
    params: SubmitTaskParams,
    result: SUBMIT_TASK_RESULT,
    summary: 'Submit a task with a declarative S2SP plan',
    description:
      'Each plan step has a step_id and exactly one of resource_call, filter, consumer_call. Safe to retry only with an idempotency_key.',
    idempotent: false,
  })
  @Idempotent()
  @RequireScopes(PLATFORM_SCOPES.TASKS_SUBMIT)
  async submitTask(params: SubmitTaskParams, ctx: JsonRpcCallContext): Promise<SubmitTaskResult> {
    const taskId = params.task_id ?? uuidV7();
    const tools = params.plan.flatMap((step) => [step.resource_call?.tool, step.consumer_call?.tool]).filter((tool): tool is string => !!tool);
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_SUBMIT, tools);
    const task = measureTranscoding(this.telemetry, 'json-rpc', 'grpc', 'agent.submitTask', () => agentTaskFromParams(params, ctx, taskId));
    const response = await this.agents.submitTask(task, origin);
    return measureTranscoding(this.telemetry, 'grpc', 'json-rpc', 'agent.submitTask', () => submitTaskResult(response, { taskId, traceId: ctx.traceId }));
  }

  @JsonRpcMethod('agent.getTask', {
    params: GetTaskParams,
    result: TASK_SNAPSHOT_RESULT,
    summary: "A task's status, steps, usage and result",
    idempotent: true,
  })
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async getTask(params: GetTaskParams, ctx: JsonRpcCallContext): Promise<TaskSnapshotJson> {
    const response = await this.agents.getTask(params.task_id, await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_READ));
    if (!response.task) throw new JsonRpcError(JsonRpcErrorCode.INTERNAL_ERROR);
    return taskSnapshotToJson(response.task);
  }

  @JsonRpcMethod('agent.cancelTask', {
    params: CancelTaskParams,
    result: CANCEL_TASK_RESULT,
    summary: 'Cancel a task: "soft" finishes the current step, "hard" aborts now',
    idempotent: false,
  })
  @Idempotent()
  @RequireScopes(PLATFORM_SCOPES.TASKS_CANCEL)
  async cancelTask(params: CancelTaskParams, ctx: JsonRpcCallContext): Promise<CancelTaskResult> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_CANCEL);
    return cancelTaskResult(await this.agents.cancelTask(cancelTaskRequest(params), origin), params.task_id);
  }
}
