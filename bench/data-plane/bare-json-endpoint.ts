import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchTableHolder } from './bench-table-holder';

/** Above this many rows one JSON text of the answer could pass V8's longest string (~512 MB): it is written in slices. */
const ONE_STRING_ROWS = 200_000;
const SLICE_ROWS = 50_000;

/**
 * The baseline: a bare node:http endpoint answering `JSON.stringify` of the same projected
 * rows (`{ _row_id, ...row }`) the data plane would, with no store, no token and no streaming
 * (except past {@link ONE_STRING_ROWS} rows, where it stringifies and writes slices of rows).
 * `POST /bare?rows=&columns=` with `{ "row_ids"?: [...] }`.
 */
export async function startBareJsonEndpoint(table: BenchTableHolder): Promise<{ origin: string; server: Server }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const columnCount = Number(url.searchParams.get('columns'));
      const rows = table.rows(Number(url.searchParams.get('rows')), columnCount);
      const text = Buffer.concat(chunks).toString('utf8');
      const rowIds = text === '' ? undefined : (JSON.parse(text) as { row_ids?: number[] }).row_ids;
      const ids = rowIds ?? rows.map((_, index) => index);
      const columnsReturned = ['_row_id', ...Object.keys(rows[0] ?? {})];
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      if (ids.length <= ONE_STRING_ROWS) {
        const body = ids.map((id) => ({ _row_id: id, ...rows[id] }));
        response.end(JSON.stringify({ body, total_rows: body.length, columns_returned: columnsReturned }));
        return;
      }
      void writeInSlices(
        response,
        ids,
        (id) => ({ _row_id: id, ...rows[id] }),
        `],"total_rows":${ids.length},"columns_returned":${JSON.stringify(columnsReturned)}}`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function writeInSlices(
  response: ServerResponse,
  ids: readonly number[],
  rowOf: (id: number) => unknown,
  tail: string,
): Promise<void> {
  response.write('{"body":[');
  for (let start = 0; start < ids.length; start += SLICE_ROWS) {
    const text = JSON.stringify(ids.slice(start, start + SLICE_ROWS).map(rowOf));
    const written = response.write((start === 0 ? '' : ',') + text.slice(1, -1));
    if (!written) await new Promise((resolve) => response.once('drain', resolve));
  }
  response.end(tail);
}
