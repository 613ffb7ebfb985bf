import { join } from 'node:path';

/**
 * The web console the gateway serves at /console (docs/console.md).
 * @public
 */
export interface ConsoleOptions {
  /** Serve /console at all. */
  enabled: boolean;
  /** Directory of the console's build (index.html, console.js, console.css): `npm run build` writes it. */
  assetsDir: string;
  /**
   * POST /console/dev-token mints a token for a subject and scopes the caller
   * names: for development only, never in `production` (validateConsoleOptions).
   */
  devTokens: boolean;
  /** Lifetime of a dev token, seconds. */
  devTokenTtlSeconds: number;
  /**
   * The gateway runs in production (gatewayConfigFromEnv sets it under NODE_ENV=production):
   * dev tokens are refused outright, `devTokens` must be false and DevTokenRequestGuard
   * refuses every request. Default false.
   */
  production?: boolean;
}

/** The console's build, shipped in the package: `npm run build` (scripts/console-build.js) writes console/dist. */
export const DEFAULT_CONSOLE_ASSETS_DIR = join(__dirname, '..', '..', 'console', 'dist');

/** The console's defaults: dev tokens on, unless in `production`. */
export function defaultConsoleOptions({ production = false }: { production?: boolean } = {}): ConsoleOptions {
  return {
    enabled: true,
    assetsDir: DEFAULT_CONSOLE_ASSETS_DIR,
    devTokens: !production,
    devTokenTtlSeconds: 3600,
    production,
  };
}

/** Throws, naming the setting, for options that cannot be served; dev tokens in production are refused outright. */
export function validateConsoleOptions(options: ConsoleOptions): ConsoleOptions {
  if (options.devTokens && options.production) {
    throw new RangeError(
      'Gateway config console.devTokens must be false in production (console.production; NODE_ENV=production for gatewayConfigFromEnv): dev tokens let anyone choose their scopes',
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
