import type { TaskEvents } from './task-events';

/** The single-process default: no other replica publishes, follows or cancels. */
export class InProcessTaskEvents implements TaskEvents {
  async publishStep(): Promise<void> {}

  async publishEnd(): Promise<void> {}

  async follow(): Promise<undefined> {
    return undefined;
  }

  async requestCancel(): Promise<undefined> {
    return undefined;
  }

  handleCancelRequests(): void {}
}
