import type { ReadableSpan } from '@opentelemetry/sdk-trace';

/** A W3C traceparent a test client sends, with known ids. */
export const CLIENT_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
export const CLIENT_SPAN_ID = '00f067aa0ba902b7';
export const CLIENT_TRACEPARENT = `00-${CLIENT_TRACE_ID}-${CLIENT_SPAN_ID}-01`;

/** The one span named `name` (fails when there are none or several). */
export function onlySpan(spans: readonly ReadableSpan[], name: string, service?: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name && (service === undefined || serviceOf(span) === service));
  if (found.length !== 1) {
    throw new Error(
      `expected one span "${name}"${service ? ` of ${service}` : ''}, got ${found.length}: ${spans.map((s) => `${s.name}@${serviceOf(s)}`).join(', ')}`,
    );
  }
  return found[0];
}

export function serviceOf(span: ReadableSpan): unknown {
  return span.resource.attributes['service.name'];
}

export function parentSpanIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** Waits until `check` is true (spans of a response are exported after the client got it). */
export async function eventually(check: () => boolean, timeoutMs = 2_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The value of one Prometheus sample line `name{labels} value`, matching every given label. */
export function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const match = /^[^{ ]+(?:\{(.*)\})? (\S+)/.exec(line);
    if (!match) continue;
    const present = new Map([...(match[1] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => present.get(key) === value)) return Number(match[2]);
  }
  return undefined;
}
