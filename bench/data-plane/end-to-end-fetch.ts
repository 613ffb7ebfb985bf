import { ARROW_STREAM_MEDIA_TYPE } from '../../libs/s2sp/src/data-plane/arrow/arrow-media-type';
import { decodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';
import { performance } from 'node:perf_hooks';
import { BodyRowsReader } from '../../libs/s2sp/src/consumer/body-rows-reader';

export type FetchFormat = 'json' | 'arrow' | 'bare';

/** From this many rows a JSON answer may pass V8's longest string: it is parsed as it arrives. */
const INCREMENTAL_JSON_ROWS = 1_000_000;

/**
 * One fetch, timed from the request to the last decoded row object: JSON (S2SP or bare)
 * by `JSON.parse` of the full text (by the consumer's incremental reader, the same for
 * both, from 1M rows), Arrow by `decodeArrowStream`.
 */
export async function timeFetch(
  url: string,
  format: FetchFormat,
  rowIds: number[] | null,
  expectedRows: number,
): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: format === 'arrow' ? ARROW_STREAM_MEDIA_TYPE : 'application/json',
    },
    body: rowIds ? JSON.stringify({ row_ids: rowIds }) : '{}',
  });
  if (!response.ok) throw new Error(`${format} fetch: HTTP ${response.status} ${await response.text()}`);
  const rows =
    format === 'arrow'
      ? (
          await decodeArrowStream(response.body as unknown as AsyncIterable<Uint8Array>, {
            maxBytes: Number.MAX_SAFE_INTEGER,
          })
        ).rows
      : expectedRows >= INCREMENTAL_JSON_ROWS
        ? await readRowsIncrementally(response)
        : (JSON.parse(await response.text()) as { body: unknown[] }).body;
  const elapsed = performance.now() - started;
  if (rows.length !== expectedRows)
    throw new Error(`${format} fetch: expected ${expectedRows} rows, got ${rows.length}`);
  return elapsed;
}

async function readRowsIncrementally(response: Response): Promise<unknown[]> {
  const reader = new BodyRowsReader();
  const decoder = new TextDecoder();
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
    reader.push(decoder.decode(chunk, { stream: true }));
  reader.push(decoder.decode());
  return reader.finish().body ?? [];
}
