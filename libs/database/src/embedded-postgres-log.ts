import { Logger } from '@nestjs/common';
import { describeEmbeddedPostgresEvent, type EmbeddedPostgresEvent } from './embedded-postgres-supervisor';
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

/** The default destination of the embedded server's supervision events: an outage and its end, in the Nest log. */
export function logEmbeddedPostgresEvent(event: EmbeddedPostgresEvent): void {
  const message = describeEmbeddedPostgresEvent(event);
  if (event.type === 'restarted') logger.log(message);
  else if (event.type === 'restart-failed') logger.warn(message);
  else logger.error(message);
}
