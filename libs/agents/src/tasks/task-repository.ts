import { Inject, Injectable } from '@nestjs/common';
import type { S2spDatabase } from '@s2sp/database';
import type { StoredJson } from '@s2sp/database/internal';
import type { JsonObject } from '@s2sp/contracts';
import { AGENTS_DATABASE } from '../agents.tokens';
import { AlreadyExistsError } from '../common/request-errors';
import { usageFromJson, type UsageRecord } from '../common/usage';
import type { TaskErrorInfo } from './agent-errors';
import type { TaskDefinition } from './task-definition';
import { UNFINISHED_STATUSES, type StepRecord, type TaskStatusName, type TaskView } from './task-records';

/** Which of a caller's tasks ListTasks reads. */
export interface TaskListQuery {
  status?: TaskStatusName;
  /** Continue after this task (the last one of the previous page). */
  after?: { createdAtMs: number; taskId: string };
  limit: number;
}

/** A task as ListTasks lists it. */
export interface TaskSummaryRecord {
  taskId: string;
  status: TaskStatusName;
  agentType: string;
  objective: string;
  planSteps: number;
  usage: UsageRecord;
  createdAtMs: number;
  updatedAtMs: number;
  completedAtMs?: number;
}

export interface TaskCompletion {
  status: TaskStatusName;
  usage: UsageRecord;
  result?: JsonObject;
  error?: TaskErrorInfo;
  completedAtMs: number;
}

/**
 * Tasks and their steps in the database (Prisma models AgentTask and
 * AgentTaskStep), written as they happen so GetTask answers after a restart.
 * Steps are stored as their AgentStepResult JSON (control plane only).
 */
@Injectable()
export class TaskRepository {
  constructor(@Inject(AGENTS_DATABASE) private readonly database: S2spDatabase) {}

  private get client() {
    return this.database.client;
  }

  /** Stores a new task as ACCEPTED; AlreadyExistsError when the id is taken. */
  async create(task: TaskDefinition, usage: UsageRecord): Promise<Date> {
    if (await this.exists(task.taskId)) throw alreadyExists(task.taskId);
    try {
      const row = await this.client.agentTask.create({
        data: {
          id: task.taskId,
          status: 'ACCEPTED',
          agentType: task.agentType,
          objective: json(task.objective),
          constraints: json(task.constraints),
          plan: json(task.plan),
          caller: task.caller ?? null,
          deadline: task.deadlineMs === undefined ? null : new Date(task.deadlineMs),
          usage: json(usage),
          traceId: task.trace?.trace_id ?? null,
        },
        select: { createdAt: true },
      });
      return row.createdAt;
    } catch (error) {
      if (isUniqueViolation(error)) throw alreadyExists(task.taskId);
      throw error;
    }
  }

  async exists(taskId: string): Promise<boolean> {
    return (await this.client.agentTask.count({ where: { id: taskId } })) > 0;
  }

  async setStatus(taskId: string, status: TaskStatusName): Promise<void> {
    await this.client.agentTask.update({ where: { id: taskId }, data: { status } });
  }

  /** Stores a finished step and the task's new usage totals together. */
  async appendStep(step: StepRecord, totals: UsageRecord): Promise<void> {
    await this.client.$transaction([
      this.client.agentTaskStep.create({
        data: { taskId: step.task_id, stepNumber: step.step_number, result: json(step) },
      }),
      this.client.agentTask.update({ where: { id: step.task_id }, data: { usage: json(totals) } }),
    ]);
  }

  async finish(taskId: string, completion: TaskCompletion): Promise<void> {
    await this.client.agentTask.update({
      where: { id: taskId },
      data: {
        status: completion.status,
        usage: json(completion.usage),
        ...(completion.result ? { result: json(completion.result) } : {}),
        ...(completion.error ? { error: json(completion.error) } : {}),
        completedAt: new Date(completion.completedAtMs),
      },
    });
  }

  async load(taskId: string): Promise<TaskView | undefined> {
    const row = await this.client.agentTask.findUnique({
      where: { id: taskId },
      include: { steps: { orderBy: { stepNumber: 'asc' } } },
    });
    if (!row) return undefined;
    const view: TaskView = {
      taskId: row.id,
      ...(row.caller !== null ? { caller: row.caller } : {}),
      status: row.status as TaskStatusName,
      steps: row.steps.map((step) => step.result as unknown as StepRecord),
      usage: usageFromJson(row.usage),
      createdAtMs: row.createdAt.getTime(),
      updatedAtMs: row.updatedAt.getTime(),
    };
    if (row.result) view.result = row.result as JsonObject;
    if (row.error) view.error = row.error as unknown as TaskErrorInfo;
    if (row.completedAt) view.completedAtMs = row.completedAt.getTime();
    if (row.traceId) view.traceId = row.traceId;
    return view;
  }

  /**
   * One page of `caller`'s tasks, newest first (ties by id, descending), those
   * strictly after `after` when given; `limit` rows at most.
   */
  async listForCaller(caller: string, query: TaskListQuery): Promise<TaskSummaryRecord[]> {
    const after = query.after;
    const rows = await this.client.agentTask.findMany({
      where: {
        caller,
        ...(query.status ? { status: query.status } : {}),
        ...(after
          ? {
              OR: [
                { createdAt: { lt: new Date(after.createdAtMs) } },
                { createdAt: new Date(after.createdAtMs), id: { lt: after.taskId } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: query.limit,
      select: {
        id: true,
        status: true,
        agentType: true,
        objective: true,
        plan: true,
        usage: true,
        createdAt: true,
        updatedAt: true,
        completedAt: true,
      },
    });
    return rows.map((row) => ({
      taskId: row.id,
      status: row.status as TaskStatusName,
      agentType: row.agentType,
      objective: naturalLanguageOf(row.objective),
      planSteps: Array.isArray(row.plan) ? row.plan.length : 0,
      usage: usageFromJson(row.usage),
      createdAtMs: row.createdAt.getTime(),
      updatedAtMs: row.updatedAt.getTime(),
      ...(row.completedAt ? { completedAtMs: row.completedAt.getTime() } : {}),
    }));
  }

  /** Ids of the tasks stored as not yet ended (ACCEPTED, RUNNING, CANCELLING). */
  async unfinishedTaskIds(): Promise<string[]> {
    const rows = await this.client.agentTask.findMany({
      where: { status: { in: [...UNFINISHED_STATUSES] } },
      select: { id: true },
    });
    return rows.map((row) => row.id);
  }

  /** Marks those of `taskIds` that are still unfinished as FAILED with `error`; returns how many. */
  async failUnfinished(error: TaskErrorInfo, taskIds: readonly string[]): Promise<number> {
    if (taskIds.length === 0) return 0;
    const { count } = await this.client.agentTask.updateMany({
      where: { id: { in: [...taskIds] }, status: { in: [...UNFINISHED_STATUSES] } },
      data: { status: 'FAILED', error: json(error), completedAt: new Date() },
    });
    return count;
  }
}

function naturalLanguageOf(objective: unknown): string {
  if (typeof objective !== 'object' || objective === null) return '';
  const text = (objective as { natural_language?: unknown }).natural_language;
  return typeof text === 'string' ? text : '';
}

function json(value: unknown): StoredJson {
  return JSON.parse(JSON.stringify(value)) as StoredJson;
}

function alreadyExists(taskId: string): AlreadyExistsError {
  return new AlreadyExistsError(
    `task_id: a task ${taskId} already exists; submit a new task without task_id, or with a new UUID`,
  );
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}
