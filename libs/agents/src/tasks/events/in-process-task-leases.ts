import type { TaskLeases } from './task-leases';

/** The single-process default: no other replica runs tasks, so an unfinished task this process does not run was left behind. */
export class InProcessTaskLeases implements TaskLeases {
  async claim(): Promise<void> {}

  async release(): Promise<void> {}

  async orphaned(taskIds: readonly string[]): Promise<string[]> {
    return [...taskIds];
  }
}
