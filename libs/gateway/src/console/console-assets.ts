import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';

export interface ConsoleAsset {
  readonly body: Buffer;
  readonly contentType: string;
}

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

/** A file name the console's build may contain: no directories, no dot files. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

/**
 * The console's build, read once at start: only the files found then are
 * served, by exact name, so a request path never reaches the file system
 * (no directory traversal, no surprise files). An empty set when the
 * directory does not exist (the console was not built).
 */
export class ConsoleAssets {
  private readonly files: ReadonlyMap<string, ConsoleAsset>;

  constructor(dir: string) {
    this.files = readAssets(dir);
  }

  get built(): boolean {
    return this.files.has('index.html');
  }

  get(name: string): ConsoleAsset | undefined {
    return ASSET_NAME.test(name) ? this.files.get(name) : undefined;
  }
}

function readAssets(dir: string): Map<string, ConsoleAsset> {
  const files = new Map<string, ConsoleAsset>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return files;
  }
  for (const name of names) {
    const contentType = CONTENT_TYPES[extname(name)];
    const path = join(dir, name);
    if (!contentType || !ASSET_NAME.test(name) || !statSync(path).isFile()) continue;
    files.set(name, { body: readFileSync(path), contentType });
  }
  return files;
}
