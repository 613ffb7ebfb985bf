import { Inject, Injectable, Logger, Optional, type LoggerService } from '@nestjs/common';
import { redactTokens } from '../redaction/redact-tokens';
import type { AuditEvent } from './audit-event';
import type { AuditSink } from './audit-sink';

/** Optional injection token: the logger a {@link LoggerAuditSink} writes to. */
export const AUDIT_LOGGER = 'S2SP_AUTH_AUDIT_LOGGER';

/**
 * Writes every decision as one JSON line: allows at `log`, denials at `warn`.
 * @public
 */
@Injectable()
export class LoggerAuditSink implements AuditSink {
  private readonly logger: LoggerService;

  constructor(@Optional() @Inject(AUDIT_LOGGER) logger?: LoggerService) {
    this.logger = logger ?? new Logger('S2spAudit');
  }

  record(event: AuditEvent): void {
    const line = redactTokens(JSON.stringify(event));
    if (event.decision === 'allow') this.logger.log(line);
    else this.logger.warn(line);
  }
}
