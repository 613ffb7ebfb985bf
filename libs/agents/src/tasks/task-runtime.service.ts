import { AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { PeriodicSweep } from '@s2sp/platform/internal';
import { warmTokenCounter } from '@s2sp/core/internal';
import { context as otelContext } from '@opentelemetry/api';
import type { JsonObject } from '@s2sp/contracts';
import { Telemetry } from '@s2sp/telemetry';
import { Observable, type Subscriber } from 'rxjs';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { assertTimeRemains } from '../common/deadline-budget';
import {
  AlreadyExistsError,
  CapacityExhaustedError,
  NotFoundError,
  PreconditionFailedError,
  TaskOwnerUnreachableError,
} from '../common/request-errors';
import { emptyUsage } from '../common/usage';
import { DeadlineExceededError } from '../mcp/tool-call-errors';
import { taskError, type TaskErrorInfo } from './agent-errors';
import { PlannerContext } from './planner-context';
import { StepExecutor } from './step-executor.service';
import { TASK_EVENTS, type RemoteCancelRequest, type TaskEvents } from './events/task-events';
import { TASK_LEASES, type TaskLeases } from './events/task-leases';
import { classifyStepError, StepFailure } from './step-failure';
import type { PlanStep, TaskDefinition } from './task-definition';
import { TaskExecution, type CancelMode } from './task-execution';
import { TASK_PLANNER, type TaskPlanner } from './task-planner';
import { FINAL_STATUSES, type StepRecord, type TaskStatusName, type TaskView } from './task-records';
import { TaskRepository } from './task-repository';
import { TaskWorkspace } from './task-workspace';

const HARD_CANCEL_WAIT_MS = 5_000;
const SHUTDOWN_WAIT_MS = 5_000;

export const INTERRUPTED_BY_RESTART: TaskErrorInfo = taskError(
  AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
  'interrupted by agents restart: the task was still running when the agents stopped; submit it again',
  RECOVERY_HINT.RESUBMIT_TASK,
);

/** The error of a task whose replica stopped or crashed before it ended (found without a lease by another replica). */
export const ABANDONED_BY_REPLICA: TaskErrorInfo = taskError(
  AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
  'interrupted: the agents replica running the task stopped before it ended; submit it again',
  RECOVERY_HINT.RESUBMIT_TASK,
);

/**
 * Runs tasks in the background: asks the TaskPlanner for each next step,
 * executes it (StepExecutor), records it (streamed to StreamTask
 * subscribers, written to the database), and ends the task SUCCEEDED,
 * FAILED or CANCELLED. Enforces the task deadline, constraints.max_steps,
 * soft cancel (after the current step) and hard cancel (aborts the
 * in-flight MCP request). At start, tasks a crash left unfinished (and that
 * no live replica holds a lease on) are marked FAILED; at shutdown, running
 * tasks are interrupted the same way. With several replicas (TaskEvents over Redis), GetTask, CancelTask and
 * StreamTask answer on any replica: the stored state, the live steps
 * published by the replica running the task, a cancel forwarded to it.
 */
@Injectable()
export class TaskRuntime implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly live = new Map<string, TaskExecution>();
  private readonly logger = new Logger('TaskRuntime');
  private readonly orphanSweep = new PeriodicSweep(
    'tasks left by a stopped agents replica',
    () => this.failConfirmedOrphans(),
    this.logger,
  );
  /** Tasks the last periodic sweep found without a lease: failed if the next one still does. */
  private suspectedOrphans = new Set<string>();

  constructor(
    private readonly repository: TaskRepository,
    private readonly executor: StepExecutor,
    @Inject(TASK_PLANNER) private readonly planner: TaskPlanner,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
    private readonly telemetry: Telemetry,
    @Inject(TASK_EVENTS) private readonly events: TaskEvents,
    @Inject(TASK_LEASES) private readonly leases: TaskLeases,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Every task counts the tokens it admits: the counter's table loads now, not in the first task.
    if (this.config.warmUp !== false) warmTokenCounter();
    this.events.handleCancelRequests((request) => this.cancelForAnotherReplica(request));
    const count = await this.failOrphans(INTERRUPTED_BY_RESTART);
    if (count > 0)
      this.logger.warn(
        `Marked ${count} task(s) left unfinished by the previous run as FAILED (interrupted by agents restart)`,
      );
    // With other replicas, one may stop without a restart of this one: look for its tasks now and then.
    if (this.config.redis) this.orphanSweep.start(this.config.taskLeaseMs);
  }

  /** Fails the unfinished tasks that neither this process nor a live replica runs; returns how many. */
  private async failOrphans(error: TaskErrorInfo): Promise<number> {
    return this.failAbandoned(error, await this.findOrphans());
  }

  /**
   * The periodic sweep fails a task only when two sweeps in a row found it
   * without a lease: a replica that missed a renewal (a stalled event loop,
   * a Redis hiccup) gets a whole lease period to renew before its task is failed.
   */
  private async failConfirmedOrphans(): Promise<number> {
    const orphans = await this.findOrphans();
    const confirmed = orphans.filter((taskId) => this.suspectedOrphans.has(taskId));
    this.suspectedOrphans = new Set(orphans);
    return this.failAbandoned(ABANDONED_BY_REPLICA, confirmed);
  }

  /**
   * Stores the tasks FAILED and announces their end, as the replica running them
   * would have: StreamTask followers on any replica end instead of waiting forever.
   */
  private async failAbandoned(error: TaskErrorInfo, taskIds: readonly string[]): Promise<number> {
    const failed = await this.repository.failUnfinished(error, taskIds);
    const announced = await Promise.allSettled(taskIds.map((taskId) => this.events.publishEnd(taskId)));
    const unannounced = announced.filter((outcome) => outcome.status === 'rejected').length;
    if (unannounced > 0)
      this.logger.warn(
        `could not announce the end of ${unannounced} abandoned task(s): their StreamTask followers on other replicas are not told`,
      );
    return failed;
  }

  private async findOrphans(): Promise<string[]> {
    const unfinished = (await this.repository.unfinishedTaskIds()).filter((taskId) => !this.live.has(taskId));
    if (unfinished.length === 0) return [];
    return (await this.leases.orphaned(unfinished)).filter((taskId) => !this.live.has(taskId));
  }

  /**
   * Waits until the running tasks have ended or `deadline` has passed (false);
   * those still running then are interrupted when the app closes
   * (beforeApplicationShutdown) and stored FAILED with a resubmit hint.
   */
  async drain(deadline: number): Promise<boolean> {
    // A loop: a task accepted while the first ones ran is waited for too.
    while (this.live.size > 0) {
      const remainingMs = deadline - Date.now();
      if (remainingMs <= 0) return false;
      const running = [...this.live.values()].map((execution) => execution.finished);
      await Promise.race([Promise.all(running), delay(remainingMs)]);
    }
    return true;
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.orphanSweep.stop();
    const running = [...this.live.values()];
    for (const execution of running) {
      execution.interruptedByShutdown = true;
      execution.cancelRequest ??= { mode: 'hard', reason: 'agents shutting down' };
      execution.abort.abort(new Error('the agents are shutting down'));
    }
    await Promise.race([Promise.all(running.map((execution) => execution.finished)), delay(SHUTDOWN_WAIT_MS)]);
  }

  /** Stores the task as ACCEPTED and starts it in the background. */
  async submit(task: TaskDefinition): Promise<TaskView> {
    if (this.live.has(task.taskId)) throw new AlreadyExistsError(`task_id: task ${task.taskId} already exists`);
    if (this.live.size >= this.config.maxRunningTasks) {
      throw new CapacityExhaustedError(`the agents already run ${this.live.size} tasks (the limit); retry shortly`, 1);
    }
    const execution = new TaskExecution(task, Date.now(), this.logger);
    this.live.set(task.taskId, execution);
    try {
      await this.leases.claim(task.taskId);
      await this.repository.create(task, emptyUsage());
    } catch (error) {
      this.live.delete(task.taskId);
      await this.leases.release(task.taskId).catch(() => undefined);
      throw error;
    }
    // The task runs in the background but in the submitting call's trace: its `plan` / `act` spans are
    // children of the grpc.AgentService/SubmitTask span, and its log lines carry that trace id.
    const submittedIn = otelContext.active();
    setImmediate(() => otelContext.with(submittedIn, () => void this.run(execution)));
    return execution.view();
  }

  /** The task as this process runs it, or as stored; undefined when unknown. */
  async get(taskId: string): Promise<TaskView | undefined> {
    const execution = this.live.get(taskId);
    if (!execution) return this.repository.load(taskId);
    // A task is shown ended only once its end is stored, so that GetTask never runs ahead of ListTasks.
    if (execution.isFinal) await execution.stored();
    return execution.view();
  }

  /**
   * SOFT: the current step finishes, then the task ends CANCELLED (the
   * answer is CANCELLING until then). HARD: the in-flight MCP request is
   * aborted now and the task ends CANCELLED. A finished task cannot be
   * cancelled (PreconditionFailedError).
   */
  async cancel(taskId: string, mode: CancelMode, reason: string): Promise<TaskStatusName> {
    const execution = this.live.get(taskId);
    if (!execution) return this.cancelElsewhere(taskId, mode, reason);
    if (execution.isFinal) throw alreadyEnded(taskId, execution.status);
    if (mode === 'hard') {
      execution.cancelRequest = { mode, reason };
      execution.abort.abort(new Error(`hard cancel${reason ? `: ${reason}` : ''}`));
      await Promise.race([execution.finished, delay(HARD_CANCEL_WAIT_MS)]);
      return execution.status;
    }
    execution.cancelRequest ??= { mode, reason };
    if (execution.status === 'RUNNING') {
      execution.setStatus('CANCELLING');
      void execution.persist('status', () => this.repository.setStatus(taskId, 'CANCELLING'));
    }
    return execution.status;
  }

  /** A task this replica does not run: ended (as stored), or forwarded to the replica that runs it. */
  private async cancelElsewhere(taskId: string, mode: CancelMode, reason: string): Promise<TaskStatusName> {
    const stored = await this.repository.load(taskId);
    if (!stored) throw new NotFoundError(`task_id: no task ${taskId}`);
    if (FINAL_STATUSES.has(stored.status)) throw alreadyEnded(taskId, stored.status);
    const status = await this.events.requestCancel({ taskId, mode, reason });
    if (status !== undefined) return status;
    const now = await this.repository.load(taskId);
    if (now && FINAL_STATUSES.has(now.status)) throw alreadyEnded(taskId, now.status);
    throw new TaskOwnerUnreachableError(
      `task ${taskId} is ${stored.status} but no agents replica running it answered the cancel; retry shortly`,
    );
  }

  /** Cancels a task another replica was asked to cancel, when this replica runs it. */
  private async cancelForAnotherReplica(request: RemoteCancelRequest): Promise<TaskStatusName | undefined> {
    const execution = this.live.get(request.taskId);
    if (!execution) return undefined;
    if (execution.isFinal) return execution.status;
    return this.cancel(request.taskId, request.mode, request.reason);
  }

  /**
   * The task's steps: the ones already taken, then new ones as they finish;
   * completes when the task ends. Unsubscribing removes the listener.
   */
  steps(taskId: string): Observable<StepRecord> {
    return new Observable<StepRecord>((subscriber) => {
      let detach: (() => void) | undefined;
      let closed = false;
      const follow = (execution: TaskExecution) => {
        for (const step of execution.steps) subscriber.next(step);
        if (execution.hasEnded) subscriber.complete();
        else detach = execution.subscribe({ step: (step) => subscriber.next(step), end: () => subscriber.complete() });
      };
      const running = this.live.get(taskId);
      if (running) {
        follow(running);
      } else {
        this.followStored(taskId, subscriber).then(
          (result) => {
            if (result instanceof TaskExecution) {
              if (!closed) follow(result);
              return;
            }
            if (closed) result?.();
            else detach = result;
          },
          (error: unknown) => subscriber.error(error),
        );
      }
      return () => {
        closed = true;
        detach?.();
      };
    });
  }

  /**
   * Steps of a task this replica does not run: the stored ones, then, while it
   * runs on another replica, the ones that replica publishes. Events are
   * followed before the stored state is read and held until it is, so that a
   * step stored in between is neither lost nor sent twice.
   */
  private async followStored(
    taskId: string,
    subscriber: Subscriber<StepRecord>,
  ): Promise<(() => void) | undefined | TaskExecution> {
    let sent = 0;
    let held: Array<StepRecord | 'end'> | undefined = [];
    const deliver = (event: StepRecord | 'end') => {
      if (event === 'end') {
        subscriber.complete();
        return;
      }
      if (event.step_number <= sent) return;
      sent = event.step_number;
      subscriber.next(event);
    };
    const unfollow = await this.events.follow(taskId, {
      step: (step) => (held ? held.push(step) : deliver(step)),
      end: () => (held ? held.push('end') : deliver('end')),
    });
    const view = await this.repository.load(taskId).catch((error: unknown) => {
      unfollow?.();
      throw error;
    });
    const startedHere = this.live.get(taskId);
    if (startedHere) {
      unfollow?.();
      return startedHere;
    }
    if (!view) {
      unfollow?.();
      subscriber.error(new NotFoundError(`task_id: no task ${taskId}`));
      return undefined;
    }
    for (const step of view.steps) deliver(step);
    if (!unfollow || FINAL_STATUSES.has(view.status)) {
      unfollow?.();
      subscriber.complete();
      return undefined;
    }
    const pending = held;
    held = undefined;
    for (const event of pending) deliver(event);
    return unfollow;
  }

  /** Live StreamTask listeners of a running task (0 when none or not running here). */
  subscriberCount(taskId: string): number {
    return this.live.get(taskId)?.subscriberCount ?? 0;
  }

  private async run(execution: TaskExecution): Promise<void> {
    const { task } = execution;
    const context = new PlannerContext();
    const workspace = new TaskWorkspace();
    const handedOut = new Map<string, PlanStep>();
    let last: { step: PlanStep; output: JsonObject } | undefined;
    try {
      if (execution.cancelRequest) {
        await this.end(execution, this.cancelledStatus(execution), this.cancelError(execution));
        return;
      }
      execution.setStatus('RUNNING');
      void execution.persist('status', () => this.repository.setStatus(task.taskId, 'RUNNING'));
      this.record(execution, this.planRecord(execution));

      for (let executed = 0; ; executed++) {
        if (execution.cancelRequest) {
          await this.end(execution, this.cancelledStatus(execution), this.cancelError(execution));
          return;
        }
        const outOfTime = this.deadlineError(task);
        if (outOfTime) {
          await this.end(execution, 'FAILED', outOfTime);
          return;
        }

        const decision = await this.telemetry.withSpan('plan', this.spanAttributes(task.taskId), () =>
          this.planner.next(task, context, { signal: execution.abort.signal }),
        );
        if (decision.type === 'done') {
          const result = decision.result ?? {
            summary: decision.summary ?? `${executed} step(s) completed`,
            ...(last ? { plan_step_id: last.step.stepId, output: last.output } : {}),
            context_tokens: context.tokens,
          };
          await this.end(execution, 'SUCCEEDED', undefined, result);
          return;
        }
        const { step } = decision;
        if (task.constraints.maxSteps > 0 && executed >= task.constraints.maxSteps) {
          await this.end(
            execution,
            'FAILED',
            taskError(
              AGENT_EXECUTION_ERROR.STEP_LIMIT_EXCEEDED,
              `constraints.max_steps (${task.constraints.maxSteps}) reached before step "${step.stepId}"`,
              RECOVERY_HINT.RAISE_MAX_STEPS,
              { max_steps: task.constraints.maxSteps },
            ),
          );
          return;
        }
        if (context.hasCompleted(step.stepId)) throw new Error(`the planner handed out step "${step.stepId}" twice`);
        handedOut.set(step.stepId, step);
        try {
          const done = await this.telemetry.withSpan('act', this.spanAttributes(task.taskId, step), () =>
            this.executor.execute(step, {
              task,
              context,
              workspace,
              steps: handedOut,
              stepNumber: execution.steps.length + 1,
              signal: execution.abort.signal,
            }),
          );
          this.record(execution, done.record);
          context.markCompleted(step.stepId);
          last = { step, output: done.output };
        } catch (error) {
          if (!(error instanceof StepFailure)) throw error;
          this.record(execution, error.record);
          const cancelled = error.cancelled || execution.isHardCancelled();
          await this.end(
            execution,
            cancelled ? this.cancelledStatus(execution) : 'FAILED',
            cancelled ? this.cancelError(execution) : error.error,
          );
          return;
        }
      }
    } catch (error) {
      // A hard cancel also aborts what the planner was waiting for (e.g. its model's answer).
      if (execution.isHardCancelled()) {
        await this.end(execution, this.cancelledStatus(execution), this.cancelError(execution));
        return;
      }
      const failure = classifyStepError(error);
      await this.end(execution, 'FAILED', failure.error);
    } finally {
      workspace.clear();
    }
  }

  /** Attributes of a task step span (built only when tracing is on). */
  private spanAttributes(taskId: string, step?: PlanStep): Record<string, string> | undefined {
    if (!this.telemetry.tracingEnabled) return undefined;
    if (!step) return { 's2sp.task.id': taskId };
    const attributes: Record<string, string> = {
      's2sp.task.id': taskId,
      's2sp.step.id': step.stepId,
      's2sp.step.kind': step.kind,
    };
    if (step.kind !== 'filter') attributes['mcp.tool.name'] = step.tool;
    return attributes;
  }

  private record(execution: TaskExecution, record: StepRecord): void {
    execution.addStep(record);
    const totals = { ...execution.usage };
    void execution
      .persist(`step ${record.step_number}`, () => this.repository.appendStep(record, totals))
      .then(() => this.announce(`step ${record.step_number}`, execution, () => this.events.publishStep(record)));
  }

  private async end(
    execution: TaskExecution,
    status: TaskStatusName,
    error?: TaskErrorInfo,
    result?: JsonObject,
  ): Promise<void> {
    execution.setStatus(status);
    execution.completedAtMs = Date.now();
    execution.error = error;
    execution.result = result;
    await execution.persist('final state', () =>
      this.repository.finish(execution.task.taskId, {
        status,
        usage: execution.usage,
        result,
        error,
        completedAtMs: execution.completedAtMs as number,
      }),
    );
    await this.announce('end', execution, () => this.events.publishEnd(execution.task.taskId));
    await this.leases.release(execution.task.taskId).catch((error: unknown) => {
      this.logger.warn(
        `Could not release the lease of task ${execution.task.taskId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
    execution.end();
    this.live.delete(execution.task.taskId);
    this.logger.log(`Task ${execution.task.taskId} ${status}${error ? ` (${error.code}: ${error.message})` : ''}`);
  }

  /** Tells the other replicas (after the database has it); a failure is logged: they still read the stored state. */
  private async announce(what: string, execution: TaskExecution, publish: () => Promise<void>): Promise<void> {
    await publish().catch((error: unknown) => {
      this.logger.warn(
        `Could not publish ${what} of task ${execution.task.taskId}: ${error instanceof Error ? error.message : String(error)}`,
      );
    });
  }

  private cancelledStatus(execution: TaskExecution): TaskStatusName {
    return execution.interruptedByShutdown ? 'FAILED' : 'CANCELLED';
  }

  private cancelError(execution: TaskExecution): TaskErrorInfo {
    if (execution.interruptedByShutdown) {
      return taskError(
        AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
        'interrupted by agents shutdown; submit the task again',
        RECOVERY_HINT.RESUBMIT_TASK,
      );
    }
    const request = execution.cancelRequest;
    const reason = request?.reason ? `: ${request.reason}` : '';
    return taskError(
      AGENT_EXECUTION_ERROR.EXECUTION_ABORTED,
      `cancelled (${request?.mode ?? 'soft'})${reason}`,
      RECOVERY_HINT.NONE,
      {
        mode: request?.mode ?? 'soft',
      },
    );
  }

  private deadlineError(task: TaskDefinition): TaskErrorInfo | undefined {
    try {
      assertTimeRemains(task.deadlineMs, this.config.deadlines);
      return undefined;
    } catch (error) {
      if (error instanceof DeadlineExceededError) return classifyStepError(error).error;
      throw error;
    }
  }

  private planRecord(execution: TaskExecution): StepRecord {
    const { task } = execution;
    const now = Date.now();
    const steps = task.plan.map((step) => {
      const entry: JsonObject = { step_id: step.stepId, kind: step.kind.toUpperCase() };
      if (step.kind !== 'filter') {
        entry.tool = step.tool;
        if (step.server) entry.server = step.server;
      }
      if (step.kind === 'resource_call') {
        entry.abstract_domains = step.abstractDomains;
        entry.mode = step.mode;
      } else {
        entry.input_step_id = step.inputStepId;
      }
      return entry;
    });
    const outline = task.plan
      .map((step) => (step.kind === 'filter' ? 'FILTER' : `${step.tool} (${step.kind.toUpperCase()})`))
      .join(' → ');
    const payload: JsonObject = {
      planner: this.planner.name,
      agent_type: task.agentType,
      steps,
      constraints: {
        max_steps: task.constraints.maxSteps,
        token_budget: task.constraints.tokenBudget,
        permitted_tools: task.constraints.permittedTools,
      },
    };
    if (task.deadlineMs !== undefined) payload.deadline_ms = task.deadlineMs;
    if (task.objective.natural_language) payload.objective = task.objective.natural_language;
    return {
      task_id: task.taskId,
      step_number: execution.steps.length + 1,
      type: 'PLAN',
      outcome: 'SUCCESS',
      plan_step_id: '',
      summary: `${this.planner.name} plan, ${task.plan.length} step(s): ${outline}`,
      payload,
      tool_calls: [],
      usage: emptyUsage(),
      started_at_ms: execution.createdAtMs,
      finished_at_ms: now,
    };
  }
}

function alreadyEnded(taskId: string, status: TaskStatusName): PreconditionFailedError {
  return new PreconditionFailedError(
    `task ${taskId} already ended ${status}; only unfinished tasks can be cancelled`,
    AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
    RECOVERY_HINT.NONE,
  );
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
