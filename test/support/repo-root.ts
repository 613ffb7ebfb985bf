import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The repository root: the nearest folder above startDir whose package.json is
 * this project's (name s2sp-nest), so tests find it from test/ and dist/test/
 * alike. The name matters because the workspaces in libs/ have package.json
 * files of their own.
 */
export function findRepoRoot(startDir: string): string {
  for (let dir = startDir; ; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown }).name === 's2sp-nest')
      return dir;
    if (dirname(dir) === dir)
      throw new Error(`repository root not found: no package.json named s2sp-nest above ${startDir}`);
  }
}
