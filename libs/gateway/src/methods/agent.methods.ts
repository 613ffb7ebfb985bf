import { Injectable } from '@nestjs/common';
import { RequireScopes } from '@s2sp/auth';
import { PLATFORM_SCOPES, type v2 } from '@s2sp/contracts';
import { measureTranscoding, Telemetry } from '@s2sp/telemetry';
import { DownstreamCredentials } from '../auth/downstream-credentials.service';
import { JsonRpcError, JsonRpcMethod, type JsonRpcCallContext } from '@s2sp/json-rpc';
import { JsonRpcErrorCode, JsonRpcEventStream, type JsonRpcStreamEvent } from '@s2sp/json-rpc/internal';
import { AgentServiceClient } from '../grpc/agent-service.client';
import type { CallOrigin } from '../grpc/agents-downstream';
import { Idempotent } from '../idempotency/idempotent.decorator';
import { agentTaskFromParams, cancelTaskRequest } from '../transcoding/task-request-transcoding';
import {
  cancelTaskResult,
  listTasksResult,
  stepResultToJson,
  submitTaskResult,
  taskSnapshotToJson,
  type CancelTaskResult,
  type ListTasksResult,
  type SubmitTaskResult,
  type TaskSnapshotJson,
} from '../transcoding/task-response-transcoding';
import { uuidV7 } from '@s2sp/platform/internal';
import { CancelTaskParams } from './dto/cancel-task.params';
import { GetTaskParams } from './dto/get-task.params';
import { ListTasksParams } from './dto/list-tasks.params';
import { SubmitTaskParams } from './dto/submit-task.params';
import {
  CANCEL_TASK_RESULT,
  LIST_TASKS_RESULT,
  SUBMIT_TASK_RESULT,
  TASK_SNAPSHOT_RESULT,
  TASK_STREAM_EVENT_RESULT,
} from './results/result-schemas';

/** Statuses after which a task takes no more steps. */
const TASK_ENDED: ReadonlySet<string> = new Set(['succeeded', 'failed', 'cancelled']);

/** agent.* -> s2sp.v1.AgentService of the agents (agent.listTasks -> s2sp.v2.AgentService). */
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
    summary: "Submit a task: a declarative S2SP plan, or only an objective for the agents' model planner",
    description:
      'Each plan step has a step_id and exactly one of resource_call, filter, consumer_call. With an empty plan, agents started with the model planner decide the steps. Safe to retry only with an idempotency_key.',
    idempotent: false,
  })
  @Idempotent()
  @RequireScopes(PLATFORM_SCOPES.TASKS_SUBMIT)
  async submitTask(params: SubmitTaskParams, ctx: JsonRpcCallContext): Promise<SubmitTaskResult> {
    const taskId = params.task_id ?? uuidV7();
    const { plan } = params;
    const tools = plan
      .flatMap((step) => [step.resource_call?.tool, step.consumer_call?.tool])
      .filter((tool): tool is string => !!tool);
    // With an empty plan the agents' planner picks the tools: the agents get what the caller holds for them.
    const origin =
      plan.length > 0
        ? await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_SUBMIT, tools)
        : await this.credentials.originForUnplannedTask(ctx);
    const task = measureTranscoding(this.telemetry, 'json-rpc', 'grpc', 'agent.submitTask', () =>
      agentTaskFromParams(params, ctx, taskId),
    );
    const response = await this.agents.submitTask(task, origin);
    return measureTranscoding(this.telemetry, 'grpc', 'json-rpc', 'agent.submitTask', () =>
      submitTaskResult(response, { taskId, traceId: ctx.traceId }),
    );
  }

  @JsonRpcMethod('agent.getTask', {
    params: GetTaskParams,
    result: TASK_SNAPSHOT_RESULT,
    summary: "A task's status, steps, usage and result",
    idempotent: true,
  })
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async getTask(params: GetTaskParams, ctx: JsonRpcCallContext): Promise<TaskSnapshotJson> {
    return this.getSnapshot(params.task_id, await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_READ));
  }

  @JsonRpcMethod('agent.listTasks', {
    params: ListTasksParams,
    result: LIST_TASKS_RESULT,
    summary: "The caller's own tasks, newest first, a page at a time",
    description:
      'Optionally only those with one status. Pass next_cursor as cursor (with the same status) for the next page. Served by s2sp.v2.AgentService/ListTasks.',
    idempotent: true,
  })
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async listTasks(params: ListTasksParams, ctx: JsonRpcCallContext): Promise<ListTasksResult> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_READ);
    const request: v2.ListTasksRequest = {
      cursor: params.cursor ?? '',
      page_size: params.page_size ?? 0,
      status: params.status
        ? `TASK_STATUS_${params.status.toUpperCase() as Uppercase<typeof params.status>}`
        : 'TASK_STATUS_UNSPECIFIED',
    };
    return listTasksResult(await this.agents.listTasks(request, origin));
  }

  @JsonRpcMethod('agent.streamTask', {
    params: GetTaskParams,
    result: TASK_STREAM_EVENT_RESULT,
    summary: "A task's progress as Server-Sent Events (Accept: text/event-stream)",
    description:
      'Events: "snapshot" (the task now), a "step" per step result (those taken already, then live ones), and a last "snapshot" once the task has ended. ' +
      'The stream ends then, or at the call deadline (an "error" event); a task still running is followed by calling again.',
    idempotent: true,
    streaming: true,
  })
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async streamTask(params: GetTaskParams, ctx: JsonRpcCallContext): Promise<JsonRpcEventStream> {
    const origin = await this.credentials.originFor(ctx, PLATFORM_SCOPES.TASKS_READ);
    // Through the circuit breaker, and a task the caller may not see is a plain JSON-RPC error, before any event.
    const snapshot = await this.getSnapshot(params.task_id, origin);
    // The handler's own signal ends when it returns; the stream is stopped by the transport instead.
    const stop = new AbortController();
    return new JsonRpcEventStream(this.taskEvents(snapshot, { ...origin, signal: stop.signal }), () => stop.abort());
  }

  private async *taskEvents(snapshot: TaskSnapshotJson, origin: CallOrigin): AsyncGenerator<JsonRpcStreamEvent> {
    yield { event: 'snapshot', result: snapshot };
    if (TASK_ENDED.has(snapshot.status)) return;
    for await (const step of this.agents.streamTask(snapshot.task_id, origin)) {
      yield { event: 'step', result: stepResultToJson(step) };
    }
    yield { event: 'snapshot', result: await this.getSnapshot(snapshot.task_id, origin) };
  }

  private async getSnapshot(taskId: string, origin: CallOrigin): Promise<TaskSnapshotJson> {
    const response = await this.agents.getTask(taskId, origin);
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
