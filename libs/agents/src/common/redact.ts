/**
 * Helpers that keep credentials and S2SP capabilities out of anything the
 * agents show (ListServers, logs, error messages): MCP server URLs may carry
 * user:password or tokens in the query, and a resource_url IS a capability.
 */

const MAX_ERROR_TEXT = 300;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s"'<>)]+/gi;
const BEARER = /\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** The URL without user info, query or fragment; an unparsable one becomes a placeholder. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search ? '?…' : ''}`;
  } catch {
    return '<invalid url>';
  }
}

/** The origin of a URL (scheme://host:port), for messages about capability URLs. */
export function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '<invalid url>';
  }
}

/** An S2SP resource_url with its token replaced, for records that outlive the call. */
export function redactResourceUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const path = parsed.pathname.replace(/\/[^/]*$/, '/');
    return `${parsed.origin}${path}<redacted>`;
  } catch {
    return '<redacted>';
  }
}

/**
 * A short, credential-free text for an error: URLs reduced to their origin,
 * authorization values removed, network error codes kept (ECONNREFUSED, …).
 */
export function describeError(error: unknown): string {
  let text: string;
  if (error instanceof Error) {
    text = error.message || error.name;
    const cause = (error as { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    if (typeof code === 'string' && !text.includes(code)) text = `${text} (${code})`;
  } else {
    text = String(error);
  }
  return sanitizeText(text);
}

/** Removes URLs (keeps origins) and authorization values from free text, and bounds its length. */
export function sanitizeText(text: string): string {
  const clean = text.replace(URL_IN_TEXT, (url) => originOf(url)).replace(BEARER, '$1 <redacted>');
  return clean.length > MAX_ERROR_TEXT ? `${clean.slice(0, MAX_ERROR_TEXT - 1)}…` : clean;
}
