import { Logger } from '@nestjs/common';

const logger = new Logger('EmbeddedPostgres');
const SEVERITY = /\b(WARNING|ERROR|FATAL|PANIC):/;

/** Whether a server log line is a warning or an error (routine LOG lines are not). */
export function isSevereEmbeddedPostgresLine(line: string): boolean {
  return SEVERITY.test(line);
}

/**
 * The default destination of the embedded server's log lines: its warnings
 * and errors (a checksum failure, a crash) go to the Nest log; its routine
 * LOG lines (start, checkpoints, shutdown) are dropped.
 */
export function logEmbeddedPostgresLine(line: string): void {
  const severity = SEVERITY.exec(line)?.[1];
  if (severity === 'WARNING') logger.warn(line);
  else if (severity) logger.error(line);
}
