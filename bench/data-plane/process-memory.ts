import { readFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';

export interface ProcessMemory {
  /** Peak resident set size since the process started (VmHWM), in bytes. */
  peakRssBytes: number;
  rssBytes: number;
  /** V8's heap: bytes reserved for it and bytes its live (or not yet collected) objects take. */
  heapTotalBytes: number;
  heapUsedBytes: number;
  /** Memory outside V8's heap held by JavaScript objects (Buffers, ArrayBuffers). */
  externalBytes: number;
  /** Memory V8 allocated outside its heap for itself (compiler zones, parser). */
  v8MallocedBytes: number;
}

export function readProcessMemory(): ProcessMemory {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kilobytes = (field: string): number =>
    Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
  const { heapTotal, heapUsed, external } = process.memoryUsage();
  const { malloced_memory: v8MallocedBytes } = getHeapStatistics();
  return {
    peakRssBytes: kilobytes('VmHWM'),
    rssBytes: kilobytes('VmRSS'),
    heapTotalBytes: heapTotal,
    heapUsedBytes: heapUsed,
    externalBytes: external,
    v8MallocedBytes,
  };
}
