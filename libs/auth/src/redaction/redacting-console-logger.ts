import { ConsoleLogger, type LogLevel } from '@nestjs/common';
import { redactTokens } from './redact-tokens';

/**
 * Nest's ConsoleLogger with {@link redactTokens} applied to everything it prints:
 * messages, stack traces and JSON log lines. `app.useLogger(new RedactingConsoleLogger())`.
 * @public
 */
export class RedactingConsoleLogger extends ConsoleLogger {
  protected override formatMessage(
    logLevel: LogLevel,
    message: unknown,
    pidMessage: string,
    formattedLogLevel: string,
    contextMessage: string,
    timestampDiff: string,
    params?: Record<string, any>,
  ): string {
    return redactTokens(
      super.formatMessage(logLevel, message, pidMessage, formattedLogLevel, contextMessage, timestampDiff, params),
    );
  }

  protected override printStackTrace(stack: string): void {
    super.printStackTrace(typeof stack === 'string' ? redactTokens(stack) : stack);
  }

  protected override stringifyJsonLogObject(logObject: Record<string, unknown>): string {
    return redactTokens(super.stringifyJsonLogObject(logObject));
  }
}
