import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The first folder from startDir upwards that contains `marker` (a relative
 * path), so that the same code finds a workspace file from a library's
 * TypeScript source (libs/contracts/src) and from its build (dist/libs/contracts/src).
 */
export function findUpwards(marker: string, startDir: string, what: string): string {
  let dir = startDir;
  for (;;) {
    if (existsSync(join(dir, marker))) return dir;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`${what} not found: no ${marker} above ${startDir}`);
    dir = parent;
  }
}
