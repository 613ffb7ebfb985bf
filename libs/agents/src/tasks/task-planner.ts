import type { JsonObject } from '@s2sp/contracts';
import type { PlannerContext } from './planner-context';
import type { PlanStep, TaskDefinition } from './task-definition';

/**
 * Injection token of the TaskPlanner (default: DeclarativePlanner).
 * @public
 */
export const TASK_PLANNER = Symbol('TASK_PLANNER');

/**
 * The planner's answer: the next step to run, or that the task is done.
 * @public
 */
export type PlannerDecision =
  { type: 'step'; step: PlanStep } | { type: 'done'; summary?: string; result?: JsonObject };

/**
 * What the runtime passes to each `next` call.
 * @public
 */
export interface PlannerCallOptions {
  /** Aborted when the task is cancelled. */
  signal?: AbortSignal;
}

/**
 * Decides what a task does next. It sees the task and the PlannerContext,
 * which holds only the control plane (abstract rows, resource metadata,
 * consumer answers); body rows are kept by the runtime and never reach it.
 * The runtime executes the step it returns (RESOURCE_CALL, FILTER,
 * CONSUMER_CALL), records it, and asks again, until `done`, a failure, a
 * cancellation, the deadline or constraints.max_steps.
 * @public
 */
export interface TaskPlanner {
  /** Shown in the PLAN step, e.g. "declarative". */
  readonly name: string;
  /** False for a planner that decides the steps itself: a task may then come with no plan (default true). */
  readonly needsPlan?: boolean;
  next(
    task: TaskDefinition,
    context: PlannerContext,
    options?: PlannerCallOptions,
  ): PlannerDecision | Promise<PlannerDecision>;
}
