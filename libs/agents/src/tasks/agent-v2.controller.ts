import { Controller, Inject } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { RequireScopes } from '@s2sp/auth';
import { requireCaller } from '@s2sp/auth/internal';
import { PLATFORM_SCOPES, type v1, type v2 } from '@s2sp/contracts';
import { DEFAULT_TASK_LIST_CONFIG, type AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { InvalidRequestError } from '../common/request-errors';
import { timestampOrUnset, usageMessage } from '../grpc/common-messages';
import { boundedString } from '../common/request-strings';
import { toGrpcError } from '../grpc/grpc-errors';
import { decodeTaskListCursor, encodeTaskListCursor } from './task-list-cursor';
import type { TaskStatusName } from './task-records';
import { taskStatusEnum } from './task-messages';
import { TaskRepository, type TaskSummaryRecord } from './task-repository';

const MAX_CURSOR_LENGTH = 256;

/** s2sp.v2.AgentService: what came after s2sp.v1.AgentService (since contract 2.2.0, listing the caller's tasks). */
@Controller()
export class AgentV2Controller {
  constructor(
    private readonly repository: TaskRepository,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
  ) {}

  /** The verified caller's own tasks, newest first; nobody else's task is ever listed. */
  @GrpcMethod('s2sp.v2.AgentService', 'ListTasks')
  @RequireScopes(PLATFORM_SCOPES.TASKS_READ)
  async listTasks(request: v2.ListTasksRequest, metadata: Metadata): Promise<v2.ListTasksResponse> {
    try {
      const caller = requireCaller(metadata, 'gRPC call').subject;
      const { defaultPageSize, maxPageSize } = this.config.taskList ?? DEFAULT_TASK_LIST_CONFIG;
      const pageSize = request.page_size ? Math.min(request.page_size, maxPageSize) : defaultPageSize;
      const status = statusFilterOf(request.status);
      const cursor = boundedString(request.cursor, 'cursor', MAX_CURSOR_LENGTH);
      const after = cursor === '' ? undefined : decodeTaskListCursor(cursor, status);
      // One more than the page tells whether another page follows.
      const rows = await this.repository.listForCaller(caller, {
        ...(status ? { status } : {}),
        ...(after ? { after } : {}),
        limit: pageSize + 1,
      });
      const page = rows.slice(0, pageSize);
      const last = page[page.length - 1];
      return {
        tasks: page.map(taskSummaryMessage),
        next_cursor:
          rows.length > pageSize && last
            ? encodeTaskListCursor({ createdAtMs: last.createdAtMs, taskId: last.taskId, status })
            : '',
      };
    } catch (error) {
      throw toGrpcError(error);
    }
  }
}

function statusFilterOf(status: v1.TaskStatus | undefined): TaskStatusName | '' {
  if (status === undefined || status === 'TASK_STATUS_UNSPECIFIED') return '';
  if (typeof status !== 'string' || !status.startsWith('TASK_STATUS_') || status === 'UNRECOGNIZED') {
    throw new InvalidRequestError('status', `unknown task status ${JSON.stringify(status)}`);
  }
  return status.slice('TASK_STATUS_'.length) as TaskStatusName;
}

function taskSummaryMessage(task: TaskSummaryRecord): v2.TaskSummary {
  return {
    task_id: task.taskId,
    status: taskStatusEnum(task.status),
    agent_type: task.agentType,
    objective: task.objective,
    plan_steps: task.planSteps,
    usage: usageMessage(task.usage),
    created_at: timestampOrUnset(task.createdAtMs),
    updated_at: timestampOrUnset(task.updatedAtMs),
    completed_at: timestampOrUnset(task.completedAtMs),
  };
}
