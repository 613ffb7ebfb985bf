/** The console's only way to the platform: POST /rpc with the signed-in token, as any client. */

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }

  /** The scopes the server said the token lacks (PermissionDeniedError, code 4002). */
  get missingScopes(): string[] {
    const data = this.data as { missing_scopes?: unknown } | undefined;
    return Array.isArray(data?.missing_scopes)
      ? data.missing_scopes.filter((scope): scope is string => typeof scope === 'string')
      : [];
  }

  /** Why the platform refused or failed the call, when it says (`data.reason`). */
  get reason(): string | undefined {
    const data = this.data as { reason?: unknown } | undefined;
    return typeof data?.reason === 'string' ? data.reason : undefined;
  }
}

/** JSON-RPC error codes of the auth layer (libs/auth/src/errors). */
export const UNAUTHENTICATED = 4001;
export const INSUFFICIENT_SCOPE = 4002;
/** The call's deadline passed (libs/json-rpc/src/json-rpc-error-codes.ts). */
export const DEADLINE_EXCEEDED = -32000;

let nextId = 1;

function request(
  token: string,
  method: string,
  params: unknown,
  accept: string,
  signal?: AbortSignal,
): Promise<Response> {
  return fetch('/rpc', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal,
  });
}

function errorOf(body: unknown, status: number): RpcError {
  const error = (body as { error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined)?.error;
  if (error && typeof error.code === 'number' && typeof error.message === 'string')
    return new RpcError(error.code, error.message, error.data);
  return new RpcError(-32603, `The gateway answered HTTP ${status} without a JSON-RPC answer`);
}

export async function rpc<T>(token: string, method: string, params: unknown): Promise<T> {
  const response = await request(token, method, params, 'application/json');
  const body: unknown = await response.json().catch(() => undefined);
  if (body && typeof body === 'object' && 'result' in body) return (body as { result: T }).result;
  throw errorOf(body, response.status);
}

/**
 * A streaming method (e.g. agent.streamTask) over Server-Sent Events on POST /rpc:
 * onEvent for each event; resolves when the stream ends, rejects with the
 * RpcError of a refusal (a plain JSON answer) or of an `error` event.
 */
export async function streamRpc(
  token: string,
  method: string,
  params: unknown,
  onEvent: (event: string, result: unknown) => void,
  signal: AbortSignal,
): Promise<void> {
  const response = await request(token, method, params, 'text/event-stream', signal);
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream') || !response.body) {
    throw errorOf(await response.json().catch(() => undefined), response.status);
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const { event, data } = parseEvent(block);
      if (data === '') continue;
      const message = JSON.parse(data) as { result?: unknown; error?: unknown };
      if ('error' in message) throw errorOf(message, response.status);
      onEvent(event, message.result);
    }
  }
}

function parseEvent(block: string): { event: string; data: string } {
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
  }
  return { event, data: data.join('\n') };
}
