import { ARROW_STREAM_MEDIA_TYPE, decodeArrowStream } from '@s2sp/core';
import { performance } from 'node:perf_hooks';

export type FetchFormat = 'json' | 'arrow' | 'bare';

/**
 * One fetch, timed from the request to the last decoded row object:
 * JSON (S2SP or bare) by `JSON.parse` of the full text, Arrow by `decodeArrowStream`.
 */
export async function timeFetch(url: string, format: FetchFormat, rowIds: number[] | null, expectedRows: number): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: format === 'arrow' ? ARROW_STREAM_MEDIA_TYPE : 'application/json' },
    body: rowIds ? JSON.stringify({ row_ids: rowIds }) : '{}',
  });
  if (!response.ok) throw new Error(`${format} fetch: HTTP ${response.status} ${await response.text()}`);
  const rows =
    format === 'arrow'
      ? (await decodeArrowStream(response.body as unknown as AsyncIterable<Uint8Array>, { maxBytes: Number.MAX_SAFE_INTEGER })).rows
      : (JSON.parse(await response.text()) as { body: unknown[] }).body;
  const elapsed = performance.now() - started;
  if (rows.length !== expectedRows) throw new Error(`${format} fetch: expected ${expectedRows} rows, got ${rows.length}`);
  return elapsed;
}
