import { spawn, type ChildProcess } from 'node:child_process';

/**
 * Stops a server process when this Node process dies, even by SIGKILL: a tiny
 * shell waits for end-of-file on a pipe only this process writes to (the
 * kernel closes it when the process is gone), then sends SIGINT (PostgreSQL's
 * fast shutdown) to the server. `disarm()` before stopping the server on purpose.
 */
export class OwnerWatchdog {
  private readonly shell: ChildProcess;

  constructor(serverPid: number) {
    this.shell = spawn(
      '/bin/sh',
      ['-c', 'read -r _; kill -INT "$1" 2>/dev/null', 's2sp-owner-watchdog', String(serverPid)],
      {
        stdio: ['pipe', 'ignore', 'ignore'],
        // its own process group: a Ctrl+C in the terminal must not stop it before the apps are done
        detached: true,
      },
    );
    this.shell.on('error', () => undefined);
    this.shell.stdin?.on('error', () => undefined);
    // The watchdog must not keep its owner alive.
    this.shell.unref();
    (this.shell.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  disarm(): void {
    this.shell.kill('SIGKILL');
  }
}
