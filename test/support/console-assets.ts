// A stand-in console build (index.html, console.js, console.css) for gateway tests that need /console served.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './temp-dir';

export function fakeConsoleAssets(): { path: string; remove(): void } {
  const dir = tempDir('s2sp-console-assets-');
  writeFileSync(join(dir.path, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dir.path, 'console.js'), 'export {};');
  writeFileSync(join(dir.path, 'console.css'), 'body{}');
  return dir;
}
