import type { LoggerService } from '@nestjs/common';
import type { JsonObject } from '@s2sp/contracts';
import { describeError } from '../common/redact';
import { addUsage, emptyUsage, type UsageRecord } from '../common/usage';
import type { TaskErrorInfo } from './agent-errors';
import type { TaskDefinition } from './task-definition';
import { FINAL_STATUSES, type StepRecord, type TaskStatusName, type TaskView } from './task-records';

/** @public */
export type CancelMode = 'soft' | 'hard';

export interface CancelRequest {
  mode: CancelMode;
  reason: string;
}

/** Someone following a task live (StreamTask). */
export interface TaskListener {
  step(record: StepRecord): void;
  end(): void;
}

/**
 * The live state of a task this process runs: status, steps, usage totals,
 * the AbortController a hard cancel fires, and the StreamTask listeners.
 * Writes to the database are chained so they land in order.
 */
export class TaskExecution {
  status: TaskStatusName = 'ACCEPTED';
  readonly steps: StepRecord[] = [];
  usage: UsageRecord = emptyUsage();
  result: JsonObject | undefined;
  error: TaskErrorInfo | undefined;
  updatedAtMs: number;
  completedAtMs: number | undefined;
  cancelRequest: CancelRequest | undefined;
  /** Set when the agents shut down: the task ends FAILED ("interrupted"), not CANCELLED. */
  interruptedByShutdown = false;
  readonly abort = new AbortController();
  /** Settles when the task has ended and its final state is written. */
  readonly finished: Promise<void>;
  private markFinished: () => void = () => undefined;
  private ended = false;
  private readonly listeners = new Set<TaskListener>();
  private writes: Promise<void> = Promise.resolve();

  constructor(
    readonly task: TaskDefinition,
    readonly createdAtMs: number,
    private readonly logger: LoggerService,
  ) {
    this.updatedAtMs = createdAtMs;
    this.finished = new Promise<void>((resolve) => {
      this.markFinished = resolve;
    });
  }

  get isFinal(): boolean {
    return FINAL_STATUSES.has(this.status);
  }

  get hasEnded(): boolean {
    return this.ended;
  }

  /** A method, not a property, so that TypeScript does not narrow it across awaits. */
  isHardCancelled(): boolean {
    return this.cancelRequest?.mode === 'hard';
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  view(): TaskView {
    const view: TaskView = {
      taskId: this.task.taskId,
      ...(this.task.caller !== undefined ? { caller: this.task.caller } : {}),
      status: this.status,
      steps: [...this.steps],
      usage: { ...this.usage },
      createdAtMs: this.createdAtMs,
      updatedAtMs: this.updatedAtMs,
    };
    if (this.result) view.result = this.result;
    if (this.error) view.error = this.error;
    if (this.completedAtMs !== undefined) view.completedAtMs = this.completedAtMs;
    if (this.task.trace) view.traceId = this.task.trace.trace_id;
    return view;
  }

  setStatus(status: TaskStatusName): void {
    this.status = status;
    this.updatedAtMs = Date.now();
  }

  /** Adds a finished step, updates the totals and tells the listeners. */
  addStep(record: StepRecord): void {
    this.steps.push(record);
    this.usage = addUsage(this.usage, record.usage);
    this.updatedAtMs = Date.now();
    for (const listener of [...this.listeners]) listener.step(record);
  }

  /** Registers a listener; the returned function removes it (call it when the subscriber goes away). */
  subscribe(listener: TaskListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** The task is over: listeners get `end` and are dropped. */
  end(): void {
    this.ended = true;
    for (const listener of [...this.listeners]) listener.end();
    this.listeners.clear();
    this.markFinished();
  }

  /** Queues a database write after the previous ones; failures are logged, not thrown. */
  /** Settles when every write queued so far has been attempted. */
  stored(): Promise<void> {
    return this.writes;
  }

  persist(what: string, write: () => Promise<void>): Promise<void> {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      this.logger.error(`Could not store ${what} of task ${this.task.taskId}: ${describeError(error)}`);
    });
    return this.writes;
  }
}
