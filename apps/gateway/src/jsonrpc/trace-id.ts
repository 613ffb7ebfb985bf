import type { IncomingHttpHeaders } from 'node:http';

const TRACEPARENT = /^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$/;
const PLAIN_TRACE_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** The trace id the caller sent: W3C `traceparent` first, else a sane `x-trace-id`. */
export function extractTraceId(headers: Readonly<IncomingHttpHeaders>): string | undefined {
  const traceparent = single(headers['traceparent'])?.trim().toLowerCase();
  const match = traceparent ? TRACEPARENT.exec(traceparent) : null;
  if (match && !/^0+$/.test(match[1])) return match[1];
  const plain = single(headers['x-trace-id'])?.trim();
  return plain && PLAIN_TRACE_ID.test(plain) ? plain : undefined;
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
