import { Inject, Injectable } from '@nestjs/common';
import { S2SP_OPTIONS } from '../config/s2sp.constants';
import type { ResolvedS2spOptions } from '../config/s2sp-options';
import { isRow, Row, ROW_ID } from '../protocol/row';
import { S2spToolError } from '../protocol/s2sp-error';
import { ARROW_STREAM_MEDIA_TYPE } from '../data-plane/arrow/arrow-media-type';
import { ArrowDecodeError, ArrowResponseTooLargeError } from '../data-plane/arrow/arrow-errors';
import { arrowDecoder } from '../data-plane/arrow/lazy-arrow';
import { CONSUMER_ACCEPT, JSON_MEDIA_TYPE } from '../data-plane/data-plane-formats';
import { BodyRowsReader } from './body-rows-reader';

/** @public */
export interface FetchBodyRequest {
  /** The rows to fetch; null asks for every row (the request then names none). */
  rowIds: number[] | null;
  /**
   * How many rows the answer will have, when `rowIds` is null and the caller knows it (a
   * consumer tool does: one per abstract row). With the count of `rowIds`, it picks the format.
   */
  expectedRows?: number;
  columns?: string[];
  /** Cuts the fetch short, e.g. when the caller's deadline passes first. */
  signal?: AbortSignal;
  /** Overrides the configured timeout when a smaller budget is left. */
  timeoutMs?: number;
  /** `Authorization` header value for the resource server (the caller's narrowed token). Never logged. */
  authorization?: string;
  /** Extra request headers, e.g. `traceparent` / `tracestate` of the consumer's fetch span, or an `accept` asking for JSON only. */
  headers?: Record<string, string>;
}

/**
 * The consumer side of the data plane: fetches body rows from a resource
 * server, only from allowlisted origins. Error messages name the origin, never
 * the resource_url, because the URL is itself the capability.
 * @public
 */
@Injectable()
export class DataPlaneClient {
  constructor(@Inject(S2SP_OPTIONS) private readonly options: ResolvedS2spOptions) {}

  async fetchBody(resourceUrl: string, request: FetchBodyRequest): Promise<Row[]> {
    const url = this.allowedUrl(resourceUrl);
    // A caller's remaining budget may be fractional or already spent.
    const timeoutMs = Math.max(
      0,
      Math.ceil(Math.min(request.timeoutMs ?? this.options.fetchTimeoutMs, this.options.fetchTimeoutMs)),
    );
    // A spent budget is refused before any request: a timer of 0 ms could fire after a fast answer.
    if (timeoutMs === 0) throw timedOut(url, timeoutMs);
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;

    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        headers: {
          accept: this.acceptFor(request),
          ...request.headers,
          'content-type': 'application/json',
          ...(request.authorization ? { authorization: request.authorization } : {}),
        },
        body: JSON.stringify({
          ...(request.rowIds ? { row_ids: request.rowIds } : {}),
          ...(request.columns ? { columns: request.columns } : {}),
        }),
        signal,
        redirect: 'error',
      });
    } catch {
      if (timeout.aborted) throw timedOut(url, timeoutMs);
      if (request.signal?.aborted) throw new S2spToolError(`The data-plane fetch from ${url.origin} was cancelled.`);
      throw new S2spToolError(`Could not reach the resource server at ${url.origin}.`, 'UNREACHABLE');
    }
    if (response.ok && isArrow(response)) return this.readArrowRows(response, url.origin, signal);
    const answer = await this.readAnswer(response, url.origin, signal);
    if (!response.ok)
      throw this.fetchRefused(response.status, answer.members, url, response.headers.get('retry-after'));
    return this.bodyRows(answer.body, url.origin);
  }

  /** Arrow preferred, unless the answer is known to be smaller than `arrowMinRows` rows: then JSON only. */
  private acceptFor({ rowIds, expectedRows }: FetchBodyRequest): string {
    const rows = rowIds?.length ?? expectedRows;
    return rows !== undefined && rows < this.options.arrowMinRows ? JSON_MEDIA_TYPE : CONSUMER_ACCEPT;
  }

  /** The resource_url as a URL, if its origin is allowed; otherwise a tool error naming the origin. */
  allowedUrl(resourceUrl: string): URL {
    let url: URL;
    try {
      url = new URL(resourceUrl);
    } catch {
      throw new S2spToolError('resource_url is not a valid URL.');
    }
    if (!this.options.allowedResourceOrigins.includes(url.origin)) {
      throw new S2spToolError(
        `resource_url points to ${url.origin}, which is not an allowed resource server for this consumer.`,
      );
    }
    return url;
  }

  /** An Arrow IPC answer's rows, decoded batch by batch as it arrives, never past maxResponseBytes. */
  private async readArrowRows(response: Response, origin: string, signal: AbortSignal): Promise<Row[]> {
    const limit = this.options.limits.maxResponseBytes;
    if (!response.body)
      throw new S2spToolError(`The resource server at ${origin} answered with something other than S2SP body rows.`);
    try {
      return (await arrowDecoder().decodeArrowStream(response.body, { maxBytes: limit })).rows;
    } catch (error) {
      if (error instanceof ArrowResponseTooLargeError)
        throw new S2spToolError(`The resource server at ${origin} answered with more than ${limit} bytes.`);
      if (error instanceof ArrowDecodeError)
        throw new S2spToolError(`The resource server at ${origin} answered with something other than S2SP body rows.`);
      if (signal.aborted)
        throw new S2spToolError(
          `The data-plane fetch from ${origin} timed out or was cancelled.`,
          'DEADLINE_EXCEEDED',
          'data-plane',
        );
      throw new S2spToolError(`The connection to the resource server at ${origin} broke while reading.`);
    }
  }

  /** The answer's body rows and other members, read as they arrive and never past maxResponseBytes. */
  private async readAnswer(
    response: Response,
    origin: string,
    signal: AbortSignal,
  ): Promise<{ body: Row[] | undefined; members: Record<string, unknown> }> {
    const declared = Number(response.headers.get('content-length') ?? '0');
    const limit = this.options.limits.maxResponseBytes;
    if (declared > limit) {
      await response.body?.cancel().catch(() => undefined);
      throw new S2spToolError(`The resource server at ${origin} sent more than ${limit} bytes.`);
    }
    const reader = new BodyRowsReader();
    try {
      await readLimited(response, limit, origin, (text) => reader.push(text));
    } catch (error) {
      if (error instanceof S2spToolError) throw error;
      if (error instanceof SyntaxError) {
        await response.body?.cancel().catch(() => undefined);
        return notAnAnswer();
      }
      if (signal.aborted)
        throw new S2spToolError(
          `The data-plane fetch from ${origin} timed out or was cancelled.`,
          'DEADLINE_EXCEEDED',
          'data-plane',
        );
      throw new S2spToolError(`The connection to the resource server at ${origin} broke while reading.`);
    }
    try {
      return reader.finish();
    } catch {
      return notAnAnswer();
    }
  }

  private fetchRefused(status: number, payload: unknown, url: URL, retryAfter: string | null): S2spToolError {
    const origin = url.origin;
    if (status === 404 || status === 410) {
      return new S2spToolError(
        `The resource server at ${origin} no longer holds this resource: resource_urls are single-use and expire. Call the resource tool again for a fresh one.`,
        'RESOURCE_GONE',
      );
    }
    // The server may echo the URL back; the token in it must not reach the model.
    const token = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
    const reason = token.length > 0 ? errorMessageOf(payload)?.split(token).join('…') : errorMessageOf(payload);
    // 503: the resource server cannot serve now (its store is restarting, a table is still being written);
    // the resource_url was not used up, so the same call may be made again.
    if (status === 503) {
      const seconds = /^\d{1,6}$/.test(retryAfter?.trim() ?? '') ? Number(retryAfter) : 1;
      return new S2spToolError(
        `The resource server at ${origin} cannot serve the resource right now (HTTP 503${reason ? `: ${reason}` : ''}); call this tool again with the same resource_url in ${seconds} s or more.`,
        'UNAVAILABLE',
      );
    }
    return new S2spToolError(
      `The resource server at ${origin} refused the fetch (HTTP ${status})${reason ? `: ${reason}` : '.'}`,
      'FETCH_REFUSED',
    );
  }

  private bodyRows(body: Row[] | undefined, origin: string): Row[] {
    if (body === undefined || !body.every((row) => Number.isInteger(row[ROW_ID]))) {
      throw new S2spToolError(`The resource server at ${origin} answered with something other than S2SP body rows.`);
    }
    return body;
  }
}

/** What a body that is not a readable JSON answer yields: no rows, no members (the caller words the error). */
function notAnAnswer(): { body: undefined; members: Record<string, unknown> } {
  return { body: undefined, members: {} };
}

function isArrow(response: Response): boolean {
  return (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase() === ARROW_STREAM_MEDIA_TYPE;
}

/** Hands a response body on as text, chunk by chunk, refusing to read more than `limit` bytes. */
async function readLimited(
  response: Response,
  limit: number,
  origin: string,
  onText: (text: string) => void,
): Promise<void> {
  if (!response.body) return;
  const decoder = new TextDecoder();
  let size = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > limit) {
      await response.body.cancel().catch(() => undefined);
      throw new S2spToolError(`The resource server at ${origin} answered with more than ${limit} bytes.`);
    }
    onText(decoder.decode(chunk, { stream: true }));
  }
  onText(decoder.decode());
}

/** The error text of an S2SP (`{error:{message}}`) or Python SDK (`{error:"…"}`) error body. */
function errorMessageOf(payload: unknown): string | undefined {
  if (!isRow(payload)) return undefined;
  const error = payload.error;
  if (typeof error === 'string') return error.slice(0, 300);
  if (isRow(error) && typeof error.message === 'string') return error.message.slice(0, 300);
  return undefined;
}

function timedOut(url: URL, timeoutMs: number): S2spToolError {
  return new S2spToolError(
    `The data-plane fetch from ${url.origin} timed out after ${timeoutMs} ms.`,
    'DEADLINE_EXCEEDED',
    'data-plane',
  );
}
