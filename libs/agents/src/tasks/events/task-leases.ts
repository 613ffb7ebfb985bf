/**
 * Token of the {@link TaskLeases} the TaskRuntime uses.
 * @public
 */
export const TASK_LEASES = Symbol('TASK_LEASES');

/**
 * Which tasks some live replica is running. A replica holds a lease on each
 * task it runs, renewed while it runs; a replica that stops or crashes stops
 * renewing. An unfinished task without a lease was left behind, and is failed
 * visibly instead of showing RUNNING forever; one with a lease belongs to a
 * replica that is still up, and is left alone.
 * @public
 */
export interface TaskLeases {
  /** Taken before the task is stored, so that no sweep sees it stored without a lease. */
  claim(taskId: string): Promise<void>;
  release(taskId: string): Promise<void>;
  /** The ones among `taskIds` that no live replica holds. */
  orphaned(taskIds: readonly string[]): Promise<string[]>;
}
