import { readFileSync } from 'node:fs';

export interface ProcessMemory {
  /** Peak resident set size since the process started (VmHWM), in bytes. */
  peakRssBytes: number;
  rssBytes: number;
}

export function readProcessMemory(): ProcessMemory {
  const status = readFileSync('/proc/self/status', 'utf8');
  const kilobytes = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
  return { peakRssBytes: kilobytes('VmHWM'), rssBytes: kilobytes('VmRSS') };
}
