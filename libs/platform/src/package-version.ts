import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The version in the package.json of the package whose compiled code is in
 * `distDir` (its `dist/` folder): the one number `scripts/set-version.js` sets
 * for every @s2sp package, read where a package reports its own version.
 * @internal
 */
export function packageVersion(distDir: string): string {
  const manifest = JSON.parse(readFileSync(join(distDir, '..', 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error(`no version in ${join(distDir, '..', 'package.json')}`);
  return manifest.version;
}
