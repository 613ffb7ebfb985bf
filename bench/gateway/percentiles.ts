/** Latency summary of a sample, in milliseconds. */
export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  if (samplesMs.length === 0) throw new Error('no samples');
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const at = (quantile: number) => sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)];
  return {
    count: sorted.length,
    p50: at(0.5),
    p90: at(0.9),
    p99: at(0.99),
    mean: sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
  };
}

export function median(samples: readonly number[]): number {
  return summarize(samples).p50;
}

/** Runs `call` `iterations` times one after another and returns each duration in ms. */
export async function timeSequential(iterations: number, call: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let index = 0; index < iterations; index++) {
    const started = process.hrtime.bigint();
    await call();
    samples.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return samples;
}
