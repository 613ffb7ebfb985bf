import type { LoggerService, LogLevel } from '@nestjs/common';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { redactDeep, redactTokens } from '@s2sp/auth';

/** The severity names a log line carries (DEBUG, INFO, WARN, ERROR, FATAL), from Nest's levels. */
const SEVERITY: Record<LogLevel, string> = {
  verbose: 'DEBUG',
  debug: 'DEBUG',
  log: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'FATAL',
};

const ALL_LEVELS: readonly LogLevel[] = ['verbose', 'debug', 'log', 'warn', 'error', 'fatal'];

/** @public */
export interface JsonLoggerOptions {
  /** `service` of every line, e.g. `s2sp-gateway`. */
  service: string;
  /** Levels written (default all). */
  levels?: readonly LogLevel[];
  /**
   * Where lines go (default stdout). MCP servers on stdio must pass
   * `(line) => process.stderr.write(line)`: stdout carries the protocol.
   */
  write?: (line: string) => void;
  /** Clock, for tests. */
  now?: () => Date;
}

/**
 * One log line, as written (one JSON object per line).
 * @public
 */
export interface JsonLogRecord {
  time: string;
  level: string;
  service: string;
  context?: string;
  message: unknown;
  trace_id?: string;
  span_id?: string;
  stack?: string;
  [field: string]: unknown;
}

/**
 * A Nest LoggerService writing one JSON object per line with time, level,
 * service, context, message, and the trace_id / span_id of the span active
 * when the line is written, so a log line leads to its trace.
 * Tokens are masked (redactTokens / redactDeep of libs/auth) in messages,
 * stacks and fields. An object message is merged into the line as fields
 * (e.g. `logger.log({ message: 'step done', task_id, agent_id })`).
 *
 * `NestFactory.create(AppModule, { logger: new JsonLogger({ service: 's2sp-gateway' }) })`
 * @public
 */
export class JsonLogger implements LoggerService {
  private enabled: ReadonlySet<LogLevel>;
  private readonly write: (line: string) => void;
  private readonly now: () => Date;

  constructor(private readonly options: JsonLoggerOptions) {
    this.enabled = new Set(options.levels ?? ALL_LEVELS);
    this.write = options.write ?? ((line) => void process.stdout.write(line));
    this.now = options.now ?? (() => new Date());
  }

  log(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('log', message, optionalParams);
  }

  error(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('error', message, optionalParams);
  }

  warn(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('warn', message, optionalParams);
  }

  debug(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('debug', message, optionalParams);
  }

  verbose(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('verbose', message, optionalParams);
  }

  fatal(message: unknown, ...optionalParams: unknown[]): void {
    this.emit('fatal', message, optionalParams);
  }

  setLogLevels(levels: LogLevel[]): void {
    this.enabled = new Set(levels);
  }

  isLevelEnabled(level: LogLevel): boolean {
    return this.enabled.has(level);
  }

  private emit(level: LogLevel, message: unknown, params: unknown[]): void {
    if (!this.enabled.has(level)) return;
    const record = this.record(level, message, params);
    let line: string;
    try {
      line = JSON.stringify(record, jsonSafe);
    } catch {
      // e.g. a circular object in the message: keep the line, lose the fields.
      line = JSON.stringify({ ...pick(record), message: redactTokens(String(message)) });
    }
    this.write(`${line}\n`);
  }

  /** Nest's convention: the last string parameter is the context; for errors a string before it is the stack. */
  private record(level: LogLevel, message: unknown, params: unknown[]): JsonLogRecord {
    const rest = [...params];
    const contextName =
      rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    let stack: string | undefined;
    if (
      (level === 'error' || level === 'fatal') &&
      (typeof rest[0] === 'string' || rest[0] === undefined) &&
      rest.length === 1
    ) {
      stack = rest.shift() as string | undefined;
    }
    const record: JsonLogRecord = {
      time: this.now().toISOString(),
      level: SEVERITY[level],
      service: this.options.service,
      message: undefined,
    };
    if (contextName !== undefined) record.context = contextName;
    Object.assign(record, messageFields(message));
    const spanContext = trace.getSpanContext(context.active());
    if (spanContext && isSpanContextValid(spanContext)) {
      record.trace_id = spanContext.traceId;
      record.span_id = spanContext.spanId;
    }
    if (stack !== undefined) record.stack = redactTokens(stack);
    if (rest.length > 0) record.params = redactDeep(rest.map(plainError));
    return record;
  }
}

/** The `message` (and, for an object, its other fields) of a log call, redacted. */
function messageFields(message: unknown): Record<string, unknown> {
  if (message instanceof Error) {
    return {
      message: redactTokens(message.message),
      error: message.name,
      ...(message.stack ? { stack: redactTokens(message.stack) } : {}),
    };
  }
  if (typeof message === 'object' && message !== null && !Array.isArray(message)) {
    const fields = redactDeep(message as Record<string, unknown>);
    // The line's own fields win over the message's.
    const { time: _time, level: _level, service: _service, trace_id: _traceId, span_id: _spanId, ...rest } = fields;
    return 'message' in rest ? rest : { message: rest };
  }
  return { message: typeof message === 'string' ? redactTokens(message) : redactDeep(message) };
}

function pick(record: JsonLogRecord): Partial<JsonLogRecord> {
  const { time, level, service, context: contextName, trace_id, span_id } = record;
  return { time, level, service, context: contextName, trace_id, span_id };
}

function plainError(value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

/** JSON.stringify replacer: BigInt as string, no throw on values JSON cannot hold. */
function jsonSafe(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}
