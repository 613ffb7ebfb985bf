import { summarize } from '../gateway/percentiles';
import type { PhaseResult } from './closed-loop';
import type { AppRss } from './rss-sampler';

/** The target (18, point 7): at concurrency 100 every method's p99 is within 10× its p50. */
export const TARGET_CONCURRENCY = 100;
export const MAX_P99_OVER_P50 = 10;

export interface MeasuredPhase {
  method: string;
  concurrency: number;
  result: PhaseResult;
  rss: AppRss[];
}

export function printLatencyTable(phases: readonly MeasuredPhase[]): void {
  console.log('method                      c   calls/s       ok    p50 ms    p99 ms  p99/p50  errors');
  for (const { method, concurrency, result } of phases) {
    const ok = result.successLatenciesMs.length;
    const latency = ok > 0 ? summarize(result.successLatenciesMs) : undefined;
    const exhausted =
      result.exhaustedAtMs === undefined ? '' : ` (work ran out at ${(result.exhaustedAtMs / 1000).toFixed(1)} s)`;
    console.log(
      [
        method.padEnd(24),
        String(concurrency).padStart(5),
        ((ok * 1000) / result.elapsedMs).toFixed(0).padStart(9),
        String(ok).padStart(8),
        fixed(latency?.p50).padStart(9),
        fixed(latency?.p99).padStart(9),
        (latency ? (latency.p99 / latency.p50).toFixed(1) : '-').padStart(8),
        `  ${errorSummary(result.errorsByKind)}${exhausted}`,
      ].join(' '),
    );
  }
}

export function printRssTable(phases: readonly MeasuredPhase[]): void {
  console.log('RSS MiB (VmRSS before / peak sampled during / after; VmHWM = peak since start)');
  console.log('method                      c   app              before   during    after    VmHWM');
  for (const { method, concurrency, rss } of phases) {
    for (const app of rss) {
      console.log(
        [
          method.padEnd(24),
          String(concurrency).padStart(5),
          `  ${app.name.padEnd(15)}`,
          fixed(app.before).padStart(7),
          fixed(app.peakDuring).padStart(8),
          fixed(app.after).padStart(8),
          fixed(app.highWaterMark).padStart(8),
        ].join(' '),
      );
    }
  }
}

/** Prints, per method, whether its p99 at the target concurrency is within the allowed multiple of its p50; returns whether all hold. */
export function printTargets(phases: readonly MeasuredPhase[]): boolean {
  let allHold = true;
  console.log(`targets: p99 <= ${MAX_P99_OVER_P50} x p50 at c${TARGET_CONCURRENCY}, no errors`);
  for (const { method, result } of phases.filter((phase) => phase.concurrency === TARGET_CONCURRENCY)) {
    const ok = result.successLatenciesMs.length;
    const latency = ok > 0 ? summarize(result.successLatenciesMs) : undefined;
    const ratio = latency ? latency.p99 / latency.p50 : Infinity;
    const errors = [...result.errorsByKind.values()].reduce((sum, count) => sum + count, 0);
    const holds = ratio <= MAX_P99_OVER_P50 && errors === 0;
    allHold &&= holds;
    console.log(
      `  ${method.padEnd(24)} p99/p50 ${ratio.toFixed(1).padStart(6)}, errors ${errors}: ${holds ? 'HOLDS' : 'FAILS'}`,
    );
  }
  return allHold;
}

function errorSummary(errorsByKind: ReadonlyMap<string, number>): string {
  if (errorsByKind.size === 0) return '0';
  return [...errorsByKind].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

function fixed(value: number | undefined): string {
  return value === undefined ? '-' : value.toFixed(1);
}
