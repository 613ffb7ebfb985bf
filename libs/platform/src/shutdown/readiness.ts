/**
 * Whether an app takes new work: `ready` until shutdown begins, then
 * `shutting_down` for good. Health endpoints report it (HTTP 503, gRPC
 * NOT_SERVING) so load balancers stop sending before the app stops accepting.
 * @internal
 */
export class Readiness {
  private shuttingDown = false;
  private readonly listeners: Array<() => void> = [];

  get status(): 'ready' | 'shutting_down' {
    return this.shuttingDown ? 'shutting_down' : 'ready';
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Runs `listener` once shutdown begins (at once when it already has). */
  onShutdown(listener: () => void): void {
    if (this.shuttingDown) listener();
    else this.listeners.push(listener);
  }

  markShuttingDown(): void {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    for (const listener of this.listeners.splice(0)) listener();
  }
}
