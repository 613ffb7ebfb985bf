import type { LoggerService, LogLevel } from '@nestjs/common';
import { JsonLogger } from './json-logger';
import type { EnvironmentVariables } from '@s2sp/platform';

/**
 * What an app's config may say about logging: its own LoggerService, the levels to keep, or false for none.
 * @public
 */
export type AppLoggerSetting = LoggerService | LogLevel[] | false | undefined;

const LEVELS: readonly LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/** @public */
export interface AppLoggerOptions {
  /** Where lines go (default stdout); MCP servers on stdio pass stderr. */
  write?: (line: string) => void;
}

/**
 * The logger an app hands Nest: a {@link JsonLogger} for `service` writing the
 * levels of the setting (all levels when it names none). `false` and a
 * LoggerService of the caller's own are passed through. An app configured from
 * the environment passes {@link logLevelsFromEnv}'s levels (LOG_LEVELS) as the setting.
 * @public
 */
export function appLogger(
  service: string,
  setting: AppLoggerSetting,
  options: AppLoggerOptions = {},
): LoggerService | false {
  if (setting === false) return false;
  if (setting !== undefined && !Array.isArray(setting)) return setting;
  return new JsonLogger({
    service,
    ...(setting ? { levels: setting } : {}),
    ...(options.write ? { write: options.write } : {}),
  });
}

/**
 * LOG_LEVELS (e.g. "error,warn") of `env` as Nest levels; undefined when unset; throws naming unknown levels.
 * @public
 */
export function logLevelsFromEnv(env: EnvironmentVariables): LogLevel[] | undefined {
  const levels = (env.LOG_LEVELS ?? '')
    .split(',')
    .map((level) => level.trim())
    .filter((level) => level !== '');
  if (levels.length === 0) return undefined;
  const unknown = levels.filter((level) => !LEVELS.includes(level as LogLevel));
  if (unknown.length > 0)
    throw new Error(`Environment variable LOG_LEVELS has unknown level(s): ${unknown.join(', ')}`);
  return levels as LogLevel[];
}

/**
 * For MCP servers on stdio: stdout carries the protocol, so log lines go to stderr.
 * @public
 */
export const writeToStderr = (line: string): void => void process.stderr.write(line);
