import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Bytes allocated on disk under a directory (like `du -s`), in MiB; undefined when it is gone. */
export function diskUsageMiB(dir: string): number | undefined {
  try {
    return allocatedBytes(dir) / (1024 * 1024);
  } catch {
    return undefined;
  }
}

function allocatedBytes(target: string): number {
  let stat;
  try {
    stat = lstatSync(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0; // removed meanwhile (a recycled WAL segment)
    throw error;
  }
  let total = stat.blocks * 512;
  if (stat.isDirectory()) for (const entry of readdirSync(target)) total += allocatedBytes(join(target, entry));
  return total;
}
