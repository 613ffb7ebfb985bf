import { peakRssMiB, rssMiB } from '../soak/process-memory';
import type { StackApp } from '../memory/stack-processes';

/** RSS of one app around a phase, in MiB. */
export interface AppRss {
  name: string;
  before?: number;
  /** Highest VmRSS sampled during the phase. */
  peakDuring?: number;
  after?: number;
  /** VmHWM after the phase: the process's peak since it started. */
  highWaterMark?: number;
}

/** Samples every app's VmRSS while a phase runs (every `intervalMs`). */
export class RssSampler {
  private readonly rss = new Map<string, AppRss>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly apps: readonly StackApp[],
    private readonly intervalMs = 250,
  ) {}

  start(): void {
    for (const app of this.apps) this.rss.set(app.name, { name: app.name, before: rssMiB(app.pid) });
    this.timer = setInterval(() => this.sample(), this.intervalMs);
  }

  stop(): AppRss[] {
    clearInterval(this.timer);
    this.sample();
    return this.apps.map((app) => {
      const rss = this.rss.get(app.name) as AppRss;
      return { ...rss, after: rssMiB(app.pid), highWaterMark: peakRssMiB(app.pid) };
    });
  }

  private sample(): void {
    for (const app of this.apps) {
      const rss = this.rss.get(app.name) as AppRss;
      const now = rssMiB(app.pid);
      if (now !== undefined) rss.peakDuring = Math.max(rss.peakDuring ?? 0, now);
    }
  }
}
