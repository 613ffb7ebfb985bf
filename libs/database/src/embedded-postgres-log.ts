import { Logger } from '@nestjs/common';
import { severityOfPostgresLogLine } from './postgres-log-severity';

const logger = new Logger('EmbeddedPostgres');

/**
 * The default destination of the embedded server's log lines: its warnings
 * and errors (a checksum failure, a crash) go to the Nest log; its routine
 * LOG lines (start, checkpoints, shutdown) are dropped.
 */
export function logEmbeddedPostgresLine(line: string): void {
  const severity = severityOfPostgresLogLine(line);
  if (severity === 'WARNING') logger.warn(line);
  else if (severity) logger.error(line);
}
