import { join } from 'node:path';

/** The web console the gateway serves at /console (docs/console.md). */
export interface ConsoleOptions {
  /** Serve /console at all. */
  enabled: boolean;
  /** Directory of the console's build (index.html, console.js, console.css): `npm run build` writes it. */
  assetsDir: string;
  /**
   * POST /console/dev-token mints a token for a subject and scopes the caller
   * names: for development only, never under NODE_ENV=production (validateConsoleOptions).
   */
  devTokens: boolean;
  /** Lifetime of a dev token, seconds. */
  devTokenTtlSeconds: number;
}

/** The console's build, shipped in the package: `npm run build` (scripts/console-build.js) writes console/dist. */
export const DEFAULT_CONSOLE_ASSETS_DIR = join(__dirname, '..', '..', 'console', 'dist');

export function isProduction(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === 'production';
}

export function defaultConsoleOptions(env: NodeJS.ProcessEnv = process.env): ConsoleOptions {
  return {
    enabled: true,
    assetsDir: DEFAULT_CONSOLE_ASSETS_DIR,
    devTokens: !isProduction(env),
    devTokenTtlSeconds: 3600,
  };
}

/** Throws, naming the setting, for options that cannot be served; dev tokens under NODE_ENV=production are refused outright. */
export function validateConsoleOptions(options: ConsoleOptions, env: NodeJS.ProcessEnv = process.env): ConsoleOptions {
  if (options.devTokens && isProduction(env)) {
    throw new RangeError(
      'Gateway config console.devTokens must be false under NODE_ENV=production: dev tokens let anyone choose their scopes',
    );
  }
  if (
    !Number.isSafeInteger(options.devTokenTtlSeconds) ||
    options.devTokenTtlSeconds < 1 ||
    options.devTokenTtlSeconds > 86_400
  ) {
    throw new RangeError(
      `Gateway config console.devTokenTtlSeconds must be an integer from 1 to 86400, got ${options.devTokenTtlSeconds}`,
    );
  }
  if (options.enabled && options.assetsDir.trim() === '')
    throw new RangeError('Gateway config console.assetsDir must not be empty');
  return options;
}
