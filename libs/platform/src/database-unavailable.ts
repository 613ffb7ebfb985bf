/**
 * How long a caller is told to wait before retrying a call that failed because the database
 * could not be reached (JSON-RPC `data.retry_after`, gRPC `retry-after`, HTTP `Retry-After`).
 * @internal
 */
export const DATABASE_RETRY_AFTER_SECONDS = 1;

/** Socket errors of a connection to a server that is down, restarting or unreachable. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot serve now: class 08 (connection exception),
 * 57P01-57P03 (shut down by an administrator, crashed, not accepting connections yet),
 * 53300 (too many connections). node-postgres errors and Prisma's driver-adapter causes
 * (`{ kind: 'postgres', code }`) both carry it as `code`.
 */
const UNAVAILABLE_SQLSTATE = /^(08[0-9A-Z]{3}|57P0[123]|53300)$/;

/** Prisma's codes for an unreachable server, a closed connection, a timeout and an exhausted pool. */
const UNAVAILABLE_PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);

/** Kinds of Prisma's driver-adapter errors (`meta.driverAdapterError.cause.kind`) that say the same. */
const UNAVAILABLE_ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);

/** What node-postgres says when the server goes away under a connection. */
const PG_CONNECTION_LOST = /^Connection terminated( unexpectedly| due to connection timeout)?$|is not queryable/;

const MAX_DEPTH = 8;

/**
 * True when `error` (or an error it wraps) says the database cannot be reached right now: a
 * retryable outage (a server restarting, a network cut), not a bad query or a bug. Judged
 * from codes and shapes, so that it holds across copies of Prisma and node-postgres.
 * @internal
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (error === null || typeof error !== 'object' || depth > MAX_DEPTH) return false;
  const candidate = error as {
    code?: unknown;
    kind?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
    meta?: { driverAdapterError?: unknown };
  };
  if (typeof candidate.code === 'string') {
    if (CONNECTION_ERROR_CODES.has(candidate.code)) return true;
    if (UNAVAILABLE_SQLSTATE.test(candidate.code)) return true;
    if (UNAVAILABLE_PRISMA_CODES.has(candidate.code)) return true;
  }
  if (typeof candidate.kind === 'string' && UNAVAILABLE_ADAPTER_KINDS.has(candidate.kind)) return true;
  if (typeof candidate.message === 'string' && PG_CONNECTION_LOST.test(candidate.message)) return true;
  const wrapped = [
    candidate.cause,
    candidate.meta?.driverAdapterError,
    ...(Array.isArray(candidate.errors) ? candidate.errors : []),
  ];
  return wrapped.some((inner) => inner !== error && isDatabaseUnavailable(inner, depth + 1));
}
