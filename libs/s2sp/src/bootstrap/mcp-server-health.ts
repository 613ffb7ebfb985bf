import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AUDIT_SINK } from '@s2sp/auth';
import { Readiness, resolvesWithin, takeNodeResponse, type SqlDatabase } from '@s2sp/platform/internal';
import { auditHealthOf, type AuditHealth } from '../audit/audit-health';
import { DATA_PLANE_FETCH_AUDIT } from '../audit/data-plane-fetch-audit';
import { S2SP_DATABASE } from '../config/s2sp.constants';

export interface McpServerHealthReport {
  /**
   * `degraded`: still serving, but its database does not answer (calls that need it answer a
   * retryable "unavailable" meanwhile) or an audit trail cannot be written (its records are
   * buffered and retried).
   * `shutting_down` (HTTP 503): SIGTERM received; requests in flight finish, new ones belong elsewhere.
   */
  status: 'ok' | 'degraded' | 'shutting_down';
  audit: AuditHealth;
  /** The database S2spModule opened (absent with a resource store of your own): does it answer `SELECT 1` in time? */
  database?: { status: 'ok' | 'unavailable' };
  /** Open MCP sessions (HTTP with sessions only). */
  mcpSessions?: number;
}

/**
 * `GET /health` (readiness) of a server started by serveMcp: 200 while it
 * serves, 503 once shutdown has begun, with the state of its database and of
 * its audit trails (decisions and data-plane fetches). `GET /health/live` (liveness): 200.
 */
export function mountMcpServerHealth(
  app: INestApplication,
  openSessions?: () => number,
  readiness: Readiness = new Readiness(),
): void {
  const modules = app.get(ModuleRef);
  const sinks = {
    decisions: optionalProvider(modules, AUDIT_SINK),
    dataFetches: optionalProvider(modules, DATA_PLANE_FETCH_AUDIT),
  };
  const database = optionalProvider(modules, S2SP_DATABASE) as SqlDatabase | undefined;
  app.getHttpAdapter().get('/health', async (_request: unknown, adapterResponse: unknown) => {
    const databaseOk = database
      ? await resolvesWithin(database.sql.query('SELECT 1'), DATABASE_CHECK_TIMEOUT_MS)
      : undefined;
    const audit = auditHealthOf(sinks);
    const healthy = audit.status === 'ok' && databaseOk !== false;
    const report: McpServerHealthReport = {
      status: readiness.isShuttingDown ? 'shutting_down' : healthy ? 'ok' : 'degraded',
      audit,
      ...(databaseOk === undefined ? {} : { database: { status: databaseOk ? 'ok' : 'unavailable' } }),
      ...(openSessions ? { mcpSessions: openSessions() } : {}),
    };
    sendJson(adapterResponse, readiness.isShuttingDown ? 503 : 200, report);
  });
  // Liveness: 200 while the process serves, also while it finishes its requests after SIGTERM.
  app
    .getHttpAdapter()
    .get('/health/live', (_request: unknown, adapterResponse: unknown) =>
      sendJson(adapterResponse, 200, { status: 'alive' }),
    );
}

/** How long /health waits for the database's `SELECT 1` before it reports it unavailable. */
const DATABASE_CHECK_TIMEOUT_MS = 2_000;

function sendJson(adapterResponse: unknown, status: number, value: object): void {
  const body = JSON.stringify(value);
  takeNodeResponse(adapterResponse)
    .writeHead(status, {
      'cache-control': 'no-store',
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    })
    .end(body);
}

/**
 * Through ModuleRef, not the app: a failed `app.get` ends the process (Nest's
 * abortOnError), and apps without AuthModule or S2spModule are served too.
 */
function optionalProvider(modules: ModuleRef, token: string | symbol): unknown {
  try {
    return modules.get(token, { strict: false });
  } catch {
    return undefined;
  }
}
