import type { INestApplication } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { AUDIT_SINK } from '@s2sp/auth';
import { Readiness, takeNodeResponse } from '@s2sp/platform/internal';
import { auditHealthOf, type AuditHealth } from '../audit/audit-health';
import { DATA_PLANE_FETCH_AUDIT } from '../audit/data-plane-fetch-audit';

export interface McpServerHealthReport {
  /**
   * `degraded`: still serving, but an audit trail cannot be written (its records are buffered and retried).
   * `shutting_down` (HTTP 503): SIGTERM received; requests in flight finish, new ones belong elsewhere.
   */
  status: 'ok' | 'degraded' | 'shutting_down';
  audit: AuditHealth;
  /** Open MCP sessions (HTTP with sessions only). */
  mcpSessions?: number;
}

/**
 * `GET /health` (readiness) of a server started by serveMcp: 200 while it
 * serves, 503 once shutdown has begun, with the state of its audit trails
 * (decisions and data-plane fetches). `GET /health/live` (liveness): 200.
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
  app.getHttpAdapter().get('/health', (_request: unknown, adapterResponse: unknown) => {
    const audit = auditHealthOf(sinks);
    const report: McpServerHealthReport = {
      status: readiness.isShuttingDown ? 'shutting_down' : audit.status === 'ok' ? 'ok' : 'degraded',
      audit,
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
