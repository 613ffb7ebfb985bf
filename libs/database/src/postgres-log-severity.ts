const SEVERITY = /\b(WARNING|ERROR|FATAL|PANIC):/;

/**
 * What a fast shutdown (the owner stopping the server) makes every session and
 * background worker print as FATAL: routine, not a failure.
 */
const TERMINATED_BY_SHUTDOWN =
  /FATAL: {2}terminating (connection|autovacuum process|background worker .*) due to administrator command/;

/**
 * The severity of a PostgreSQL server log line when it is a warning or an error;
 * undefined for routine lines (LOG lines, sessions ended by a shutdown).
 */
export function severityOfPostgresLogLine(line: string): 'WARNING' | 'ERROR' | 'FATAL' | 'PANIC' | undefined {
  if (TERMINATED_BY_SHUTDOWN.test(line)) return undefined;
  return SEVERITY.exec(line)?.[1] as 'WARNING' | 'ERROR' | 'FATAL' | 'PANIC' | undefined;
}
