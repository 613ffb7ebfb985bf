import { readFileSync, writeFileSync } from 'node:fs';

export interface ProcessMemory {
  /** Peak resident set size since start or the last reset (VmHWM), in bytes. */
  peakRssBytes: number;
  rssBytes: number;
}

export function readProcessMemory(): ProcessMemory {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kilobytes = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
  return { peakRssBytes: kilobytes('VmHWM'), rssBytes: kilobytes('VmRSS') };
}

/** Restarts VmHWM from the current RSS (Linux: "5" in clear_refs, see proc(5)). */
export function resetPeakRss(): void {
  writeFileSync('/proc/self/clear_refs', '5');
}
