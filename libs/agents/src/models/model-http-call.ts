/**
 * A language model endpoint that failed or answered what cannot be read. Its message names the
 * endpoint's answer, never the key.
 * @public
 */
export class ModelEndpointError extends Error {
  constructor(
    message: string,
    /** The HTTP status, when the endpoint answered one. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelEndpointError';
  }
}

export interface ModelHttpLimits {
  timeoutMs: number;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

/** Characters of an error answer quoted in a ModelEndpointError. */
const QUOTED_ERROR_CHARS = 300;

/** POSTs JSON to a model endpoint and reads its JSON answer, within the time and size limits. */
export async function postModelJson(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  limits: ModelHttpLimits,
): Promise<unknown> {
  const timeout = AbortSignal.timeout(limits.timeoutMs);
  const signal = limits.signal ? AbortSignal.any([limits.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (limits.signal?.aborted) throw error;
    if (timeout.aborted)
      throw new ModelEndpointError(`the model endpoint did not answer within ${limits.timeoutMs} ms`);
    throw new ModelEndpointError(`the model endpoint cannot be reached: ${causeOf(error)}`);
  }
  const text = await readCapped(response, limits.maxResponseBytes);
  if (!response.ok) {
    throw new ModelEndpointError(
      `the model endpoint answered ${response.status}: ${errorMessageOf(text).slice(0, QUOTED_ERROR_CHARS)}`,
      response.status,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ModelEndpointError('the model endpoint answered something other than JSON', response.status);
  }
}

async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel();
    throw new ModelEndpointError(`the model's answer is ${declared} bytes, more than the ${maxBytes} allowed`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new ModelEndpointError(`the model's answer exceeds the ${maxBytes} bytes allowed`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The `error.message` of an OpenAI- or Anthropic-style error answer, else the text itself. */
function errorMessageOf(text: string): string {
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed.error?.message === 'string') return parsed.error.message;
  } catch {
    // not JSON: quote the text
  }
  return text;
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if (typeof cause?.code === 'string') return cause.code;
  return error instanceof Error ? error.message : String(error);
}
