import { Controller, Inject } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { RequireScopes } from '@s2sp/auth';
import { requireCaller } from '@s2sp/auth/internal';
import { PLATFORM_SCOPES, type v1 } from '@s2sp/contracts';
import { catchError, from, map, switchMap, throwError, type Observable } from 'rxjs';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { assertTimeRemains } from '../common/deadline-budget';
import { InvalidRequestError, NotFoundError } from '../common/request-errors';
import { traceMessage } from '../grpc/trace-context';
import { isUuid } from '@s2sp/platform/internal';
import { grpcDeadlineOf, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import type { CancelMode } from './task-execution';
import type { TaskView } from './task-records';
import { snapshotMessage, stepMessage, taskStatusEnum } from './task-messages';
import { TaskRuntime } from './task-runtime.service';
import { TASK_PLANNER, type TaskPlanner } from './task-planner';
import { validateAgentTask } from './task-validation';

const MAX_REASON_LENGTH = 1_024;

/** s2sp.v1.AgentService: tasks with a declarative S2SP plan, run in the background. */
@Controller()
export class AgentController {
  constructor(
    private readonly runtime: TaskRuntime,
    private readonly connector: McpConnectorService,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
    @Inject(TASK_PLANNER) private readonly planner: TaskPlanner,
  ) {}

  /**
   * Validates the task, stores it ACCEPTED and answers at once; the task
   * runs in the background. task_id: the given one when it is a UUID, else
   * a new UUID v7. The task's deadline is `task.deadline` when set, else this
   * call's gRPC deadline (how the gateway passes a JSON-RPC call's deadline);
   * it bounds every step. A set `task.deadline` is not cut short by the gRPC
   * deadline, which then bounds only this call: a client may submit a long
   * task with a short call. A task whose deadline leaves no time is refused
   * with DEADLINE_EXCEEDED (hop "agents").
   */
  @GrpcMethod('s2sp.v1.AgentService', 'SubmitTask')
  @RequireScopes(PLATFORM_SCOPES.TASKS_SUBMIT)
  async submitTask(
    request: v1.SubmitTaskRequest,
    metadata: Metadata,
    call: GrpcServerCall,
  ): Promise<v1.SubmitTaskResponse> {
    let traceId: string | undefined;
    try {
      const task = validateAgentTask(
        request.task,
        this.connector.servers().map((server) => server.id),
        metadata,
        { planRequired: this.planner.needsPlan !== false },
      );
      task.identity = requireCaller(metadata, 'gRPC call');
      task.caller = task.identity.subject;
      traceId = task.trace?.trace_id;
      task.deadlineMs ??= grpcDeadlineOf(call);
      assertTimeRemains(task.deadlineMs, this.config.deadlines);
      const view = await this.runtime.submit(task);
      return {
        task_id: view.taskId,
        status: taskStatusEnum(view.status),
        estimated_completion_ms: '0',
        trace: traceMessage(task.trace),
      };
    } catch (error) {
      throw toGrpcError(error, traceId);
    }
  }

  @GrpcMethod('s2sp.v1.AgentService', 'GetTask')
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async getTask(request: v1.GetTaskRequest, metadata: Metadata): Promise<v1.GetTaskResponse> {
    try {
      const taskId = taskIdOf(request.task_id);
      const view = await this.ownedTask(taskId, metadata);
      return { task: snapshotMessage(view) };
    } catch (error) {
      throw toGrpcError(error);
    }
  }

  /** SOFT (default when unset): finish the current step, then stop. HARD: abort the in-flight MCP call now. */
  @GrpcMethod('s2sp.v1.AgentService', 'CancelTask')
  @RequireScopes(PLATFORM_SCOPES.TASKS_CANCEL)
  async cancelTask(request: v1.CancelTaskRequest, metadata: Metadata): Promise<v1.CancelTaskResponse> {
    try {
      const taskId = taskIdOf(request.task_id);
      await this.ownedTask(taskId, metadata);
      const mode = cancelModeOf(request.mode);
      const reason = request.reason ?? '';
      if (reason.length > MAX_REASON_LENGTH)
        throw new InvalidRequestError('reason', `must be at most ${MAX_REASON_LENGTH} characters`);
      const status = await this.runtime.cancel(taskId, mode, reason);
      return { task_id: taskId, status: taskStatusEnum(status) };
    } catch (error) {
      throw toGrpcError(error);
    }
  }

  /** The steps already taken, then live ones; completes when the task ends. */
  @GrpcMethod('s2sp.v1.AgentService', 'StreamTask')
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  streamTask(request: v1.GetTaskRequest, metadata: Metadata): Observable<v1.AgentStepResult> {
    let taskId: string;
    try {
      taskId = taskIdOf(request.task_id);
    } catch (error) {
      return throwError(() => toGrpcError(error));
    }
    return from(this.ownedTask(taskId, metadata)).pipe(
      switchMap(() => this.runtime.steps(taskId)),
      map((step) => stepMessage(step)),
      catchError((error: unknown) => throwError(() => toGrpcError(error))),
    );
  }

  /** The task, if the verified caller submitted it; anyone else's is NOT_FOUND (its existence is not revealed). */
  private async ownedTask(taskId: string, metadata: Metadata): Promise<TaskView> {
    const view = await this.runtime.get(taskId);
    if (!view || view.caller !== requireCaller(metadata, 'gRPC call').subject)
      throw new NotFoundError(`task_id: no task ${taskId}`);
    return view;
  }
}

function taskIdOf(value: string | undefined): string {
  const taskId = (value ?? '').trim();
  if (taskId === '') throw new InvalidRequestError('task_id', 'is required');
  if (!isUuid(taskId)) throw new InvalidRequestError('task_id', 'must be a UUID');
  return taskId.toLowerCase();
}

function cancelModeOf(mode: string | undefined): CancelMode {
  if (mode === undefined || mode === '' || mode === 'CANCEL_MODE_UNSPECIFIED' || mode === 'CANCEL_MODE_SOFT')
    return 'soft';
  if (mode === 'CANCEL_MODE_HARD') return 'hard';
  throw new InvalidRequestError('mode', `unknown cancel mode ${JSON.stringify(mode)}`);
}
