import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BenchTableHolder } from './bench-table-holder';

/**
 * The baseline: a bare node:http endpoint answering `JSON.stringify` of the same projected
 * rows (`{ _row_id, ...row }`) the data plane would, with no store, no token and no streaming.
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
      const body = ids.map((id) => ({ _row_id: id, ...rows[id] }));
      const columnsReturned = ['_row_id', ...Object.keys(rows[0] ?? {})];
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      response.end(JSON.stringify({ body, total_rows: body.length, columns_returned: columnsReturned }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}
