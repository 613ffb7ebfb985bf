/**
 * Runs a refresh at most once at a time: a request while one runs makes it run
 * once more afterwards (several requests in the meantime coalesce into that one).
 */
export class CoalescedRefresh {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly refresh: () => Promise<void>,
    private readonly stopped: () => boolean,
  ) {}

  request(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        await this.refresh();
      } while (this.again && !this.stopped());
    })().finally(() => {
      this.running = undefined;
    });
  }
}
