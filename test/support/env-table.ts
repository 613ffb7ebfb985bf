// Table-driven checks of an app's configuration loader: every variable the
// README lists, its default, and what setting it changes.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../libs/s2sp/src/config/s2sp-options';
import { S2SP_LIMIT_ENV } from '../../libs/s2sp/src/config/limits-from-env';
import { findRepoRoot } from './repo-root';
import { withEnv } from './with-env';

export interface EnvCase<C> {
  /** Variables set for this case (on top of every listed variable being unset). */
  env: Record<string, string>;
  /** What the loaded configuration must show. */
  expect(config: C): void;
}

/** The S2SP_MAX_* variables and their default limits, which both example servers read. */
export const LIMIT_VARIABLES = Object.values(S2SP_LIMIT_ENV);

/** Loads the configuration with only `variables` (unset) and each case's values, and checks it. */
export function checkEnvTable<C>(load: () => C, variables: readonly string[], cases: ReadonlyArray<EnvCase<C>>): void {
  const unset = Object.fromEntries(variables.map((name) => [name, undefined]));
  for (const [index, { env, expect }] of cases.entries()) {
    const unknown = Object.keys(env).filter((name) => !variables.includes(name));
    assert.deepEqual(unknown, [], `case ${index} sets only listed variables`);
    const config = withEnv({ ...unset, ...env }, load);
    try {
      expect(config);
    } catch (error) {
      throw new Error(`with ${JSON.stringify(env)}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

/** One case per limit: each S2SP_MAX_* variable sets its limit only; unset, the defaults. */
export function limitCases<C>(limitsOf: (config: C) => unknown): Array<EnvCase<C>> {
  return [
    { env: {}, expect: (config) => assert.deepEqual(limitsOf(config), DEFAULT_LIMITS) },
    ...Object.entries(S2SP_LIMIT_ENV).map(([limit, variable]) => ({
      env: { [variable]: '4242' },
      expect: (config: C) => assert.deepEqual(limitsOf(config), { ...DEFAULT_LIMITS, [limit]: 4242 }),
    })),
  ];
}

/**
 * The variables of the README's table marked `<!-- env-table: <name> -->`: every name in
 * backquotes in its first column, sorted.
 */
export function readmeEnvTable(name: string): string[] {
  const readme = readFileSync(join(findRepoRoot(__dirname), 'README.md'), 'utf8');
  const marker = `<!-- env-table: ${name} -->`;
  const start = readme.indexOf(marker);
  assert.ok(start >= 0, `README.md has no ${marker}`);
  const rows = readme
    .slice(start + marker.length)
    .trimStart()
    .split('\n\n')[0]
    .split('\n')
    .slice(2);
  const names = rows.flatMap((row) =>
    [...(row.split('|')[1] ?? '').matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]),
  );
  assert.ok(names.length > 0, `${marker} lists no variable`);
  return [...new Set(names)].sort();
}
