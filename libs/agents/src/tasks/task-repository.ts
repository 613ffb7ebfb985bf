import { Inject, Injectable } from '@nestjs/common';
import type { S2spDatabase } from '@s2sp/database';
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

/** The columns of agent_task that a summary (ListTasks) reads, as the driver returns them. */
interface TaskSummaryRow {
  id: string;
  status: string;
  agent_type: string;
  objective: unknown;
  plan: unknown;
  usage: unknown;
  created_at: Date;
  updated_at: Date;
  completed_at: Date | null;
}

interface TaskRow extends TaskSummaryRow {
  caller: string | null;
  result: JsonObject | null;
  error: TaskErrorInfo | null;
  trace_id: string | null;
}

const SUMMARY_COLUMNS = 'id, status, agent_type, objective, plan, usage, created_at, updated_at, completed_at';

/**
 * Tasks and their steps in the database (tables agent_task and agent_task_step of the Prisma
 * schema), written as they happen so GetTask answers after a restart. Steps are stored as their
 * AgentStepResult JSON (control plane only). Every statement runs on the database's driver: the
 * agents then never load Prisma's query compiler (about 90 MiB resident).
 */
@Injectable()
export class TaskRepository {
  constructor(@Inject(AGENTS_DATABASE) private readonly database: S2spDatabase) {}

  private get sql() {
    return this.database.sql;
  }

  /** Stores a new task as ACCEPTED; AlreadyExistsError when the id is taken. */
  async create(task: TaskDefinition, usage: UsageRecord): Promise<Date> {
    const [row] = await this.sql.query<{ created_at: Date }>(
      `INSERT INTO agent_task (id, status, agent_type, objective, constraints, plan, caller, deadline, usage,
                               trace_id, updated_at)
       VALUES ($1::uuid, 'ACCEPTED', $2, $3::jsonb, $4::jsonb, $5::jsonb, $6, $7, $8::jsonb, $9, now())
       ON CONFLICT (id) DO NOTHING
       RETURNING created_at`,
      [
        task.taskId,
        task.agentType,
        json(task.objective),
        json(task.constraints),
        json(task.plan),
        task.caller ?? null,
        task.deadlineMs === undefined ? null : new Date(task.deadlineMs),
        json(usage),
        task.trace?.trace_id ?? null,
      ],
    );
    if (!row) throw alreadyExists(task.taskId);
    return row.created_at;
  }

  async exists(taskId: string): Promise<boolean> {
    return (await this.sql.query('SELECT 1 FROM agent_task WHERE id = $1::uuid', [taskId])).length > 0;
  }

  async setStatus(taskId: string, status: TaskStatusName): Promise<void> {
    await this.sql.query('UPDATE agent_task SET status = $2, updated_at = now() WHERE id = $1::uuid', [taskId, status]);
  }

  /** Stores a finished step and the task's new usage totals together. */
  async appendStep(step: StepRecord, totals: UsageRecord): Promise<void> {
    await this.sql.transaction(async (sql) => {
      await sql.query('INSERT INTO agent_task_step (task_id, step_number, result) VALUES ($1::uuid, $2, $3::jsonb)', [
        step.task_id,
        step.step_number,
        json(step),
      ]);
      await sql.query('UPDATE agent_task SET usage = $2::jsonb, updated_at = now() WHERE id = $1::uuid', [
        step.task_id,
        json(totals),
      ]);
    });
  }

  async finish(taskId: string, completion: TaskCompletion): Promise<void> {
    await this.sql.query(
      `UPDATE agent_task SET status = $2, usage = $3::jsonb, result = coalesce($4::jsonb, result),
              error = coalesce($5::jsonb, error), completed_at = $6, updated_at = now()
       WHERE id = $1::uuid`,
      [
        taskId,
        completion.status,
        json(completion.usage),
        completion.result ? json(completion.result) : null,
        completion.error ? json(completion.error) : null,
        new Date(completion.completedAtMs),
      ],
    );
  }

  async load(taskId: string): Promise<TaskView | undefined> {
    const [row] = await this.sql.query<TaskRow>(
      `SELECT ${SUMMARY_COLUMNS}, caller, result, error, trace_id FROM agent_task WHERE id = $1::uuid`,
      [taskId],
    );
    if (!row) return undefined;
    const steps = await this.sql.query<{ result: StepRecord }>(
      'SELECT result FROM agent_task_step WHERE task_id = $1::uuid ORDER BY step_number',
      [taskId],
    );
    const view: TaskView = {
      taskId: row.id,
      ...(row.caller !== null ? { caller: row.caller } : {}),
      status: row.status as TaskStatusName,
      steps: steps.map((step) => step.result),
      usage: usageFromJson(row.usage),
      createdAtMs: row.created_at.getTime(),
      updatedAtMs: row.updated_at.getTime(),
    };
    if (row.result) view.result = row.result;
    if (row.error) view.error = row.error;
    if (row.completed_at) view.completedAtMs = row.completed_at.getTime();
    if (row.trace_id) view.traceId = row.trace_id;
    return view;
  }

  /**
   * One page of `caller`'s tasks, newest first (ties by id, descending), those
   * strictly after `after` when given; `limit` rows at most.
   */
  async listForCaller(caller: string, query: TaskListQuery): Promise<TaskSummaryRecord[]> {
    const after = query.after;
    const rows = await this.sql.query<TaskSummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM agent_task
       WHERE caller = $1 AND ($2::text IS NULL OR status = $2)
         AND ($3::timestamptz IS NULL OR (created_at, id) < ($3::timestamptz, $4::uuid))
       ORDER BY created_at DESC, id DESC
       LIMIT $5`,
      [
        caller,
        query.status ?? null,
        after ? new Date(after.createdAtMs) : null,
        after ? after.taskId : null,
        query.limit,
      ],
    );
    return rows.map((row) => ({
      taskId: row.id,
      status: row.status as TaskStatusName,
      agentType: row.agent_type,
      objective: naturalLanguageOf(row.objective),
      planSteps: Array.isArray(row.plan) ? row.plan.length : 0,
      usage: usageFromJson(row.usage),
      createdAtMs: row.created_at.getTime(),
      updatedAtMs: row.updated_at.getTime(),
      ...(row.completed_at ? { completedAtMs: row.completed_at.getTime() } : {}),
    }));
  }

  /** Ids of the tasks stored as not yet ended (ACCEPTED, RUNNING, CANCELLING). */
  async unfinishedTaskIds(): Promise<string[]> {
    const rows = await this.sql.query<{ id: string }>('SELECT id FROM agent_task WHERE status = ANY($1::text[])', [
      [...UNFINISHED_STATUSES],
    ]);
    return rows.map((row) => row.id);
  }

  /** Marks those of `taskIds` that are still unfinished as FAILED with `error`; returns how many. */
  async failUnfinished(error: TaskErrorInfo, taskIds: readonly string[]): Promise<number> {
    if (taskIds.length === 0) return 0;
    const failed = await this.sql.query(
      `UPDATE agent_task SET status = 'FAILED', error = $3::jsonb, completed_at = now(), updated_at = now()
       WHERE id = ANY($1::uuid[]) AND status = ANY($2::text[])
       RETURNING id`,
      [[...taskIds], [...UNFINISHED_STATUSES], json(error)],
    );
    return failed.length;
  }
}

function naturalLanguageOf(objective: unknown): string {
  if (typeof objective !== 'object' || objective === null) return '';
  const text = (objective as { natural_language?: unknown }).natural_language;
  return typeof text === 'string' ? text : '';
}

/** A value as the text of a jsonb parameter. */
function json(value: unknown): string {
  return JSON.stringify(value);
}

function alreadyExists(taskId: string): AlreadyExistsError {
  return new AlreadyExistsError(
    `task_id: a task ${taskId} already exists; submit a new task without task_id, or with a new UUID`,
  );
}
