/**
 * Environment variables as a fromEnv helper takes them (`process.env`, or a record of a test's own).
 * @public
 */
export type EnvironmentVariables = Readonly<Record<string, string | undefined>>;

/**
 * Small, strict readers for configuration from environment variables.
 * @beta
 */
export function envString(name: string, fallback: string): string {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

/** @beta */
export function envOptional(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value.trim() === '' ? undefined : value.trim();
}

/** @beta */
export function envInt(name: string, fallback: number, { min = 0, max = Number.MAX_SAFE_INTEGER } = {}): number {
  const raw = envOptional(name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`Environment variable ${name} must be an integer from ${min} to ${max}; got "${raw}".`);
  }
  return value;
}

/** @beta */
export function envList(name: string, fallback: string[]): string[] {
  return envOptionalList(name) ?? fallback;
}

/**
 * A comma-separated list (blank entries skipped), or undefined when the variable is unset or blank.
 * @internal
 */
export function envOptionalList(name: string): string[] | undefined {
  const raw = envOptional(name);
  return raw === undefined
    ? undefined
    : raw
        .split(',')
        .map((item) => item.trim())
        .filter((item) => item !== '');
}

/**
 * `key=value,key=value` (e.g. `weather=http://…/mcp`): the first `=` splits,
 * so a value may contain `=`; blank entries are skipped. Throws naming the
 * variable and the malformed entry, with `shape` and an example.
 * @beta
 */
export function parsePairs(
  text: string,
  source: string,
  shape: string,
  example: string,
): Array<[key: string, value: string]> {
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return entries.map((entry, index) => {
    const separator = entry.indexOf('=');
    const key = entry.slice(0, separator).trim();
    const value = entry.slice(separator + 1).trim();
    if (separator <= 0 || key === '' || value === '')
      throw new Error(`${source}[${index}] must be "${shape}" (e.g. ${example})`);
    return [key, value];
  });
}

/**
 * One of `choices`, or `fallback` when unset; throws naming the variable and the choices.
 * @internal
 */
export function envChoice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
  const raw = envOptional(name);
  if (raw === undefined) return fallback;
  if (!(choices as readonly string[]).includes(raw)) {
    throw new Error(`Environment variable ${name} must be one of ${choices.join(', ')}; got "${raw}".`);
  }
  return raw as T;
}
