import type { AuditEvent, AuditSink } from '@s2sp/auth';
import type { TelemetryMetrics } from '@s2sp/telemetry';
import type { SqlQuery } from '@s2sp/platform';
import type { SqlDatabase } from '@s2sp/platform/internal';
import { recordsetInsert } from './recordset-insert';
import { storable } from './storable-text';

/** Each column of `s2sp_audit_event` but `id`: its SQL type and its value in an event (undefined = NULL). */
const COLUMNS: ReadonlyArray<readonly [column: string, sqlType: string, value: (event: AuditEvent) => unknown]> = [
  ['time', 'timestamptz(3)', (event) => event.time],
  ['decision', 'text', (event) => event.decision],
  ['outcome', 'text', (event) => event.outcome],
  ['authentication_failure', 'text', (event) => event.authenticationFailure],
  ['subject', 'text', (event) => event.subject],
  ['delegated_by', 'jsonb', (event) => event.delegatedBy],
  ['client_id', 'text', (event) => event.clientId],
  ['token_id', 'text', (event) => event.tokenId],
  ['issuer', 'text', (event) => event.issuer],
  ['caller_scopes', 'jsonb', (event) => event.callerScopes],
  ['protocol', 'text', (event) => event.protocol],
  ['service', 'text', (event) => event.service],
  ['operation', 'text', (event) => event.operation],
  ['required_scopes', 'jsonb', (event) => event.requiredScopes],
  ['missing_scopes', 'jsonb', (event) => event.missingScopes],
  ['mutation_class', 'text', (event) => event.mutationClass],
  ['approval', 'jsonb', (event) => event.approval],
  ['trace_id', 'text', (event) => event.traceId],
  ['remote_address', 'text', (event) => event.remoteAddress],
];

const INSERT_EVENTS = recordsetInsert(
  's2sp_audit_event',
  COLUMNS.map(([column, sqlType]) => [column, sqlType] as const),
);

/**
 * Writes authorization decisions to `s2sp_audit_event` (a table of the Prisma
 * schema); each call resolves once its rows are stored. A group is one
 * statement with one JSON parameter (./recordset-insert.ts), whatever its
 * size. Every string is made storable first (see storable-text.ts); every
 * failed write counts in `audit_write_failures_total{trail="decisions"}`.
 * @public
 */
export class PrismaAuditSink implements AuditSink {
  private readonly sql: SqlQuery;

  constructor(
    database: Pick<SqlDatabase, 'sql'>,
    private readonly metrics?: TelemetryMetrics,
  ) {
    this.sql = database.sql;
  }

  record(event: AuditEvent): Promise<void> {
    return this.recordMany([event]);
  }

  async recordMany(events: readonly AuditEvent[]): Promise<void> {
    if (events.length === 0) return;
    try {
      await this.sql.query(INSERT_EVENTS, [JSON.stringify(storable(events.map(auditRow)))]);
    } catch (error) {
      this.metrics?.auditWriteFailed('decisions');
      throw error;
    }
  }
}

/** The event under the table's column names; a column left out is SQL NULL (not JSON null). */
function auditRow(event: AuditEvent): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const [column, , value] of COLUMNS) {
    const item = value(event);
    if (item !== undefined && item !== null) row[column] = item;
  }
  return row;
}
