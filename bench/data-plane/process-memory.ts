import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** Peak resident set size since the process started (VmHWM), in bytes. */
  peakRssBytes: number;
  rssBytes: number;
  /** V8's heap: bytes reserved for it and bytes its live (or not yet collected) objects take. */
  heapTotalBytes: number;
  heapUsedBytes: number;
  /** Memory outside V8's heap held by JavaScript objects (Buffers, ArrayBuffers). */
  externalBytes: number;
}

export function readProcessMemory(): ProcessMemory {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kilobytes = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
  const { heapTotal, heapUsed, external } = process.memoryUsage();
  return { peakRssBytes: kilobytes('VmHWM'), rssBytes: kilobytes('VmRSS'), heapTotalBytes: heapTotal, heapUsedBytes: heapUsed, externalBytes: external };
}
