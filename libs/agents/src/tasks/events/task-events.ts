import type { CancelMode } from '../task-execution';
import type { StepRecord, TaskStatusName } from '../task-records';

/**
 * Token of the {@link TaskEvents} the TaskRuntime uses.
 * @public
 */
export const TASK_EVENTS = Symbol('TASK_EVENTS');

/**
 * Someone on this replica following a task that another replica runs.
 * @public
 */
export interface RemoteTaskFollower {
  step(record: StepRecord): void;
  end(): void;
}

/** @public */
export interface RemoteCancelRequest {
  taskId: string;
  mode: CancelMode;
  reason: string;
}

/**
 * Answers a cancel request forwarded by another replica: the task's status
 * after the cancel when this replica runs the task, undefined when it does not.
 * @public
 */
export type RemoteCancelHandler = (request: RemoteCancelRequest) => Promise<TaskStatusName | undefined>;

/**
 * How the agents replicas tell each other about the tasks they run
 * (docs/scale-out.md): the replica running a task publishes each step once it
 * is stored, and the task's end once its final state is stored; any replica
 * can follow those, and forward a cancel to the replica that runs the task.
 * @public
 */
export interface TaskEvents {
  /** A step of a task this replica runs, published after it was stored. */
  publishStep(record: StepRecord): Promise<void>;
  /** The task this replica ran has ended and its final state is stored. */
  publishEnd(taskId: string): Promise<void>;
  /**
   * Follows a task another replica runs. Resolves once events are being
   * received (read the stored state after that, so that nothing falls between
   * the two) with the function that stops following; undefined when there are
   * no other replicas (single process).
   */
  follow(taskId: string, follower: RemoteTaskFollower): Promise<(() => void) | undefined>;
  /** The status the running replica answered with, or undefined when no replica answered in time. */
  requestCancel(request: RemoteCancelRequest): Promise<TaskStatusName | undefined>;
  /** Installs the handler of cancel requests forwarded by other replicas. */
  handleCancelRequests(handler: RemoteCancelHandler): void;
}
