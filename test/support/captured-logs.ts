// The JSON log lines a server under test writes, kept for assertions.
import { JsonLogger } from '../../libs/telemetry/src';

export class CapturedLogs {
  readonly lines: Record<string, unknown>[] = [];
  readonly logger = new JsonLogger({
    service: 'under-test',
    write: (line) => this.lines.push(JSON.parse(line) as Record<string, unknown>),
  });

  /** Lines at ERROR level, or carrying a stack trace at any level. */
  errorsOrStacks(): Record<string, unknown>[] {
    return this.lines.filter((line) => line.level === 'ERROR' || JSON.stringify(line).includes('\\n    at '));
  }

  clear(): void {
    this.lines.length = 0;
  }
}
