// A library's configuration is the options its user passes: only a documented *FromEnv helper,
// which an app calls, may read the environment (never a provider, a default, or a parameter's default).
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { envReadsIn } from '../support/env-reads';
import { findRepoRoot } from '../support/repo-root';

const ROOT = findRepoRoot(__dirname);

/** The readers themselves (envString, envInt, …), which the *FromEnv helpers call. */
const READER_DEFINITIONS = 'libs/platform/src/env.ts';

/** Reads that are not configuration: the embedded server's child process needs a PATH to find its tools. */
const NOT_CONFIGURATION = [{ file: 'libs/database/src/embedded-postgres-server.ts', what: 'process.env.PATH' }];

/** What is wrong with the reads of the environment in one file of a library, one message each. */
function violationsIn(file: string, text: string): string[] {
  return envReadsIn(file, text).flatMap((read) => {
    const where = `${file}:${read.line}: ${read.what}`;
    if (read.defaultParameter) return [`${where} is a parameter's default value`];
    if (file === READER_DEFINITIONS) return [];
    if (NOT_CONFIGURATION.some((allowed) => allowed.file === file && allowed.what === read.what)) return [];
    if (read.enclosingFunction?.endsWith('FromEnv')) return [];
    return [`${where} in ${read.enclosingFunction ?? 'module scope'}, which is not a *FromEnv function`];
  });
}

/** libs/<name>/src/**\/*.ts, relative to the repository root; not the code generators write (Prisma's, the protos'). */
function librarySources(): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated') walk(path);
      } else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) files.push(relative(ROOT, path));
    }
  };
  for (const lib of readdirSync(join(ROOT, 'libs'), { withFileTypes: true })) {
    if (lib.isDirectory()) walk(join(ROOT, 'libs', lib.name, 'src'));
  }
  return files;
}

describe('environment reads in the libraries', () => {
  test('each sits in a *FromEnv helper an app calls, and none is a default parameter', () => {
    const files = librarySources();
    const texts = files.map((file) => [file, readFileSync(join(ROOT, file), 'utf8')] as const);
    assert.deepEqual(
      texts.flatMap(([file, text]) => violationsIn(file, text)),
      [],
    );
    const helpers = new Set(
      texts.flatMap(([file, text]) => envReadsIn(file, text).map((read) => read.enclosingFunction)),
    );
    for (const helper of ['gatewayConfigFromEnv', 'agentsConfigFromEnv', 'shutdownOptionsFromEnv', 'consoleFromEnv'])
      assert.ok(helpers.has(helper), `the scan finds the reads of ${helper}`);
  });

  test('the check fails a library that reads the environment anywhere else', () => {
    const fixture = [
      "import { envInt as int } from '@s2sp/platform';",
      "export function timeoutFromEnv(): number { return int('A_TIMEOUT', 1); }",
      "export const limitsFromEnv = () => [1].map(() => int('A_LIMIT', 2));",
      'export function port(env = process.env) { return env.PORT; }',
      'export class Options { static forRoot() { return process.env.DEBUG; } }',
      "export const level = () => process['env'].LEVEL;",
      'const { env } = process;',
      'export function retriesFromEnv(env: NodeJS.ProcessEnv = globalThis.process.env) { return env.RETRIES; }',
      "const helper = { defaults() { return int('A_PORT', 3); } };",
    ].join('\n');
    assert.deepEqual(violationsIn('libs/x/src/options.ts', fixture), [
      "libs/x/src/options.ts:4: process.env is a parameter's default value",
      'libs/x/src/options.ts:5: process.env.DEBUG in forRoot, which is not a *FromEnv function',
      'libs/x/src/options.ts:6: process.env.LEVEL in level, which is not a *FromEnv function',
      'libs/x/src/options.ts:7: process.env in module scope, which is not a *FromEnv function',
      "libs/x/src/options.ts:8: process.env is a parameter's default value",
      'libs/x/src/options.ts:9: envInt() in defaults, which is not a *FromEnv function',
    ]);
  });
});
