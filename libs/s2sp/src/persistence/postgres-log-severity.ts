const SEVERITY = /\b(WARNING|ERROR|FATAL|PANIC):/;

/** The severity of a PostgreSQL server log line when it is a warning or an error; undefined for routine LOG lines. */
export function severityOfPostgresLogLine(line: string): 'WARNING' | 'ERROR' | 'FATAL' | 'PANIC' | undefined {
  return SEVERITY.exec(line)?.[1] as 'WARNING' | 'ERROR' | 'FATAL' | 'PANIC' | undefined;
}
