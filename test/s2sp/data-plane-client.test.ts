import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { DataPlaneClient } from '../../libs/s2sp/src/consumer/data-plane-client.service';
import { resolveS2spOptions, type S2spModuleOptions } from '../../libs/s2sp/src/config/s2sp-options';
import { generateResourceToken } from '../../libs/s2sp/src/protocol/resource-token';
import { S2spToolError } from '../../libs/s2sp/src/protocol/s2sp-error';

interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

interface TestServer {
  origin: string;
  requests: SeenRequest[];
  /** TCP connections accepted, whether or not a request followed. */
  connections: number;
  resourceUrl(token?: string): string;
  close(): Promise<void>;
}

type Handler = (request: SeenRequest, res: ServerResponse) => void;

const servers: TestServer[] = [];
after(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

async function startServer(handler: Handler): Promise<TestServer> {
  const sockets = new Set<Socket>();
  const requests: SeenRequest[] = [];
  const state = { connections: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      requests.push(seen);
      handler(seen, res);
    });
  });
  server.on('connection', (socket: Socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  let closed: Promise<void> | undefined;
  const testServer: TestServer = {
    origin,
    requests,
    get connections() {
      return state.connections;
    },
    resourceUrl: (token = TOKEN) => `${origin}/s2sp/data/${token}`,
    close: () =>
      (closed ??= new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      })),
  };
  servers.push(testServer);
  return testServer;
}

function json(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(payload);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function clientFor(origins: string[], options: Partial<S2spModuleOptions> = {}): DataPlaneClient {
  return new DataPlaneClient(
    resolveS2spOptions({ allowedResourceOrigins: origins, fetchTimeoutMs: 2_000, ...options }),
  );
}

const TOKEN = generateResourceToken();

/** Rejects with an S2spToolError whose message matches, and never carries the capability token. */
async function refused(promise: Promise<unknown>, pattern: RegExp, token = TOKEN): Promise<S2spToolError> {
  let caught: unknown;
  await assert.rejects(promise, (error: unknown) => {
    caught = error;
    return true;
  });
  assert.ok(
    caught instanceof S2spToolError,
    `expected S2spToolError, got ${caught instanceof Error ? `${caught.name}: ${caught.message}` : String(caught)}`,
  );
  assert.match(caught.message, pattern);
  assert.ok(!caught.message.includes(token), `the message leaks the resource_url token: ${caught.message}`);
  return caught;
}

const BODY_ROWS = [
  { _row_id: 0, description: 'North winds 25-35 mph', instruction: 'Secure outdoor objects' },
  { _row_id: 2, description: 'Gusts up to 55 mph', instruction: 'Use caution while driving' },
];

describe('DataPlaneClient.fetchBody', { timeout: 20_000 }, () => {
  describe('success', () => {
    test('POSTs {"row_ids":[...]} as JSON to the resource_url and returns the body rows', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: BODY_ROWS, total_rows: 2, columns_returned: ['_row_id', 'description', 'instruction'] }),
      );
      const rows = await clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0, 2] });
      assert.deepEqual(rows, BODY_ROWS);

      assert.equal(server.requests.length, 1);
      const [request] = server.requests;
      assert.equal(request.method, 'POST');
      assert.equal(request.url, `/s2sp/data/${TOKEN}`);
      assert.match(request.headers['content-type'] ?? '', /^application\/json/);
      assert.match(String(request.headers.accept), /application\/json/);
      assert.equal(request.body, '{"row_ids":[0,2]}');
    });

    test('asks for Arrow from arrowMinRows rows (JSON understood), and for JSON only below it or as the caller says', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: ['_row_id'] }),
      );
      const client = clientFor([server.origin], { arrowMinRows: 3 });
      const acceptFor = async (request: Parameters<DataPlaneClient['fetchBody']>[1]): Promise<string> => {
        await client.fetchBody(server.resourceUrl(), request);
        return String(server.requests.at(-1)!.headers.accept);
      };
      const arrowPreferred = 'application/vnd.apache.arrow.stream, application/json;q=0.9';
      assert.equal(await acceptFor({ rowIds: [0, 1] }), 'application/json');
      assert.equal(await acceptFor({ rowIds: [0, 1, 2] }), arrowPreferred);
      assert.equal(await acceptFor({ rowIds: null, expectedRows: 2 }), 'application/json');
      assert.equal(await acceptFor({ rowIds: null, expectedRows: 3 }), arrowPreferred);
      assert.equal(await acceptFor({ rowIds: null }), arrowPreferred, 'an answer of unknown size may be large');
      assert.equal(await acceptFor({ rowIds: [0, 1, 2], headers: { accept: 'application/json' } }), 'application/json');
      const alwaysArrow = clientFor([server.origin], { arrowMinRows: 0 });
      await alwaysArrow.fetchBody(server.resourceUrl(), { rowIds: [] });
      assert.equal(String(server.requests.at(-1)!.headers.accept), arrowPreferred);
    });

    test('arrowMinRows must be a whole number, 0 or more', () => {
      for (const arrowMinRows of [-1, 1.5, Number.NaN]) {
        assert.throws(
          () => resolveS2spOptions({ arrowMinRows }),
          /S2spModule: arrowMinRows must be a whole number, 0 or more/,
        );
      }
      assert.equal(resolveS2spOptions({}).arrowMinRows, 500);
    });

    test('sends columns when given', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, {
          body: [{ _row_id: 1, description: 'd' }],
          total_rows: 1,
          columns_returned: ['_row_id', 'description'],
        }),
      );
      const rows = await clientFor([server.origin]).fetchBody(server.resourceUrl(), {
        rowIds: [1],
        columns: ['description'],
      });
      assert.deepEqual(rows, [{ _row_id: 1, description: 'd' }]);
      assert.deepEqual(JSON.parse(server.requests[0].body), { row_ids: [1], columns: ['description'] });
    });

    test('an empty body list is a valid answer', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: ['_row_id'] }),
      );
      assert.deepEqual(await clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [] }), []);
      assert.equal(server.requests[0].body, '{"row_ids":[]}');
    });

    test('a chunked answer without content-length is read whole', async () => {
      const rows = Array.from({ length: 500 }, (_, i) => ({ _row_id: i, description: `row ${i} `.repeat(20) }));
      const text = JSON.stringify({
        body: rows,
        total_rows: rows.length,
        columns_returned: ['_row_id', 'description'],
      });
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < text.length; i += 1000) res.write(text.slice(i, i + 1000));
        res.end();
      });
      assert.deepEqual(await clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [] }), rows);
    });

    test('multi-byte UTF-8 split across chunks is decoded correctly', async () => {
      const text = Buffer.from(
        JSON.stringify({ body: [{ _row_id: 0, place: 'Müllheim — 北京 ☔' }], total_rows: 1, columns_returned: [] }),
      );
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < text.length; i += 3) res.write(text.subarray(i, i + 3));
        res.end();
      });
      assert.deepEqual(await clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }), [
        { _row_id: 0, place: 'Müllheim — 北京 ☔' },
      ]);
    });

    test('the allowlist is compared by normalized origin (case, default port, trailing slash)', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const port = new URL(server.origin).port;
      const client = clientFor([`HTTP://127.0.0.1:${port}/`]);
      assert.deepEqual(await client.fetchBody(`http://127.0.0.1:${port}/s2sp/data/${TOKEN}`, { rowIds: [] }), []);
    });
  });

  describe('resource gone', () => {
    for (const status of [404, 410]) {
      test(`${status} → single-use/expired message naming the origin, not the token or URL`, async () => {
        const server = await startServer((req, res) =>
          json(res, status, { error: { code: 'RESOURCE_NOT_FOUND', message: `No resource ${req.url}` } }),
        );
        const error = await refused(
          clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
          /no longer holds this resource: resource_urls are single-use and expire\. Call the resource tool again/,
        );
        assert.ok(error.message.includes(server.origin));
        assert.ok(!error.message.includes(server.resourceUrl()));
      });
    }

    test('a non-JSON 404 page that echoes the path (Express "Cannot POST …") does not leak the token', async () => {
      const server = await startServer((req, res) => {
        res.writeHead(404, { 'content-type': 'text/html' });
        res.end(`<pre>Cannot POST ${req.url}</pre>`);
      });
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /single-use and expire/,
      );
    });
  });

  describe('refusals carry the server’s reason', () => {
    test('Python-reference-SDK-style {"error": "..."}', async () => {
      const server = await startServer((_req, res) => json(res, 400, { error: 'row_ids must be a list of integers' }));
      const error = await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /refused the fetch \(HTTP 400\): row_ids must be a list of integers$/,
      );
      assert.ok(error.message.includes(server.origin));
    });

    test('S2SP-style {"error": {"code", "message"}}', async () => {
      const server = await startServer((_req, res) =>
        json(res, 413, {
          error: { code: 'PAYLOAD_TOO_LARGE', message: 'row_ids names 200001 rows; at most 100000 per fetch.' },
        }),
      );
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /refused the fetch \(HTTP 413\): row_ids names 200001 rows; at most 100000 per fetch\.$/,
      );
    });

    test('no readable reason → status only', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Internal Server Error');
      });
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /refused the fetch \(HTTP 500\)\.$/,
      );
    });

    test('an error object without a string message → status only', async () => {
      const server = await startServer((_req, res) => json(res, 400, { error: { code: 'INVALID_REQUEST' } }));
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /refused the fetch \(HTTP 400\)\.$/,
      );
    });

    test('a long reason is cut to 300 characters', async () => {
      const server = await startServer((_req, res) => json(res, 400, { error: 'x'.repeat(5_000) }));
      const error = await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /HTTP 400/,
      );
      assert.ok(error.message.includes('x'.repeat(300)));
      assert.ok(!error.message.includes('x'.repeat(301)));
    });

    test('a reason that echoes the resource_url does not leak the token into the message', async () => {
      const server = await startServer((req, res) =>
        json(res, 400, { error: `Bad request for http://127.0.0.1${req.url}` }),
      );
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /refused the fetch \(HTTP 400\)/,
      );
    });
  });

  describe('allowlist', () => {
    test('an origin not in the allowlist is refused before any connection', async (t) => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const fetches = t.mock.method(globalThis, 'fetch');
      const error = await refused(
        clientFor(['http://127.0.0.1:1', 'https://weather.example.com']).fetchBody(server.resourceUrl(), {
          rowIds: [0],
        }),
        /resource_url points to http:\/\/127\.0\.0\.1:\d+, which is not an allowed resource server for this consumer\./,
      );
      assert.ok(error.message.includes(server.origin));
      assert.equal(fetches.mock.callCount(), 0, 'no fetch was started');
      assert.equal(server.requests.length, 0);
      assert.equal(server.connections, 0);
    });

    test('no allowlist at all → every origin is refused', async (t) => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const fetches = t.mock.method(globalThis, 'fetch');
      await refused(clientFor([]).fetchBody(server.resourceUrl(), { rowIds: [0] }), /not an allowed resource server/);
      assert.equal(fetches.mock.callCount(), 0, 'no fetch was started');
      assert.equal(server.connections, 0);
    });

    test('same host by another name, another scheme or another port is a different origin', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const port = Number(new URL(server.origin).port);
      const client = clientFor([server.origin]);
      await refused(
        client.fetchBody(`http://localhost:${port}/s2sp/data/${TOKEN}`, { rowIds: [0] }),
        /points to http:\/\/localhost:\d+, which is not an allowed/,
      );
      await refused(
        client.fetchBody(`https://127.0.0.1:${port}/s2sp/data/${TOKEN}`, { rowIds: [0] }),
        /points to https:\/\/127\.0\.0\.1:\d+, which is not an allowed/,
      );
      await refused(
        client.fetchBody(`http://127.0.0.1:${port + 1}/s2sp/data/${TOKEN}`, { rowIds: [0] }),
        /which is not an allowed/,
      );
      assert.equal(server.connections, 0);
    });

    test('credentials in the URL do not change the origin check, and are not echoed', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const sneaky = `http://${new URL(server.origin).host}@evil.example:80/s2sp/data/${TOKEN}`;
      const error = await refused(
        clientFor([server.origin]).fetchBody(sneaky, { rowIds: [0] }),
        /points to http:\/\/evil\.example, which is not an allowed/,
      );
      assert.ok(!error.message.includes('@'));
      assert.equal(server.connections, 0);
    });

    test('non-http schemes are refused', async () => {
      const client = clientFor(['http://127.0.0.1:3101']);
      await refused(client.fetchBody(`file:///s2sp/data/${TOKEN}`, { rowIds: [0] }), /not an allowed resource server/);
    });

    test('a resource_url that is not a URL → clear error, not echoed', async () => {
      const client = clientFor(['http://127.0.0.1:3101']);
      await refused(client.fetchBody(`s2sp/data/${TOKEN}`, { rowIds: [0] }), /^resource_url is not a valid URL\.$/);
      await refused(client.fetchBody('', { rowIds: [0] }), /^resource_url is not a valid URL\.$/);
    });
  });

  describe('network failures and time limits', () => {
    test('a server that never answers → timeout message with the configured time', async () => {
      const server = await startServer(() => undefined);
      const started = Date.now();
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 300 }).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /^The data-plane fetch from http:\/\/127\.0\.0\.1:\d+ timed out after 300 ms\.$/,
      );
      const elapsed = Date.now() - started;
      // The server never answers: only the 300 ms timeout ends the wait (the bound leaves a busy machine room).
      assert.ok(elapsed >= 250 && elapsed < 15_000, `took ${elapsed} ms`);
      assert.equal(server.requests.length, 1);
    });

    test('a smaller per-call timeoutMs wins over the configured one', async () => {
      const server = await startServer(() => undefined);
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 5_000 }).fetchBody(server.resourceUrl(), {
          rowIds: [0],
          timeoutMs: 150,
        }),
        /timed out after 150 ms\./,
      );
    });

    test('a larger per-call timeoutMs is capped at the configured one', async () => {
      const server = await startServer(() => undefined);
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 200 }).fetchBody(server.resourceUrl(), {
          rowIds: [0],
          timeoutMs: 60_000,
        }),
        /timed out after 200 ms\./,
      );
    });

    test('a remaining budget that is a fraction of a millisecond count still works (e.g. from performance.now())', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [{ _row_id: 0 }], total_rows: 1, columns_returned: ['_row_id'] }),
      );
      const rows = await clientFor([server.origin]).fetchBody(server.resourceUrl(), {
        rowIds: [0],
        timeoutMs: 1_500.25,
      });
      assert.deepEqual(rows, [{ _row_id: 0 }]);
    });

    test('an exhausted budget (timeoutMs ≤ 0) is reported as a timeout, not as an unexpected failure', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      const fetched = clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0], timeoutMs: -20 });
      // Refused before any I/O: a 0 ms timer racing the request could lose to a fast answer.
      const first = await Promise.race([
        fetched.then(
          () => 'answered',
          () => 'refused',
        ),
        new Promise((resolve) => setImmediate(() => resolve('still waiting'))),
      ]);
      assert.equal(first, 'refused');
      await refused(fetched, /timed out/);
      assert.equal(server.requests.length, 0, 'a spent budget sends no request');
    });

    test('headers arrive but the body stalls → timed out', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"body":[');
      });
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 300 }).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /^The data-plane fetch from http:\/\/127\.0\.0\.1:\d+ timed out or was cancelled\.$/,
      );
    });

    test('the caller’s signal cancels the fetch', async () => {
      const server = await startServer(() => undefined);
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 5_000 }).fetchBody(server.resourceUrl(), {
          rowIds: [0],
          signal: controller.signal,
        }),
        /^The data-plane fetch from http:\/\/127\.0\.0\.1:\d+ was cancelled\.$/,
      );
    });

    test('an already-aborted signal cancels without a request', async () => {
      const server = await startServer((_req, res) =>
        json(res, 200, { body: [], total_rows: 0, columns_returned: [] }),
      );
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0], signal: AbortSignal.abort() }),
        /was cancelled\./,
      );
      assert.equal(server.requests.length, 0);
    });

    test('nothing listening → could not reach, naming the origin', async () => {
      const server = await startServer(() => undefined);
      await server.close();
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /^Could not reach the resource server at http:\/\/127\.0\.0\.1:\d+\.$/,
      );
    });

    test('the connection breaks in the middle of the body → broke while reading', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '10000' });
        res.write('{"body":[{"_row_id":0,');
        setTimeout(() => res.socket?.destroy(), 20);
      });
      await refused(
        clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
        /^The connection to the resource server at http:\/\/127\.0\.0\.1:\d+ broke while reading\.$/,
      );
    });
  });

  describe('response size', () => {
    const LIMIT = 1_000;

    test('a declared content-length above maxResponseBytes is refused without reading it', async () => {
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.write('{"body":[');
      });
      await refused(
        clientFor([server.origin], { limits: { maxResponseBytes: LIMIT } }).fetchBody(server.resourceUrl(), {
          rowIds: [0],
        }),
        /^The resource server at http:\/\/127\.0\.0\.1:\d+ sent more than 1000 bytes\.$/,
      );
    });

    test('refusing an oversized answer releases the connection at once (not at the fetch timeout)', async () => {
      let released: () => void = () => undefined;
      const closed = new Promise<void>((resolve) => (released = resolve));
      const server = await startServer((_req, res) => {
        res.on('close', () => released());
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '5000' });
        res.write('{"body":[');
      });
      await refused(
        clientFor([server.origin], { fetchTimeoutMs: 10_000, limits: { maxResponseBytes: LIMIT } }).fetchBody(
          server.resourceUrl(),
          { rowIds: [0] },
        ),
        /sent more than 1000 bytes/,
      );
      const outcome = await Promise.race([
        closed.then(() => 'released'),
        new Promise<string>((resolve) => setTimeout(() => resolve('still open after 1 s'), 1_000)),
      ]);
      assert.equal(outcome, 'released');
    });

    test('a chunked answer that grows past maxResponseBytes is cut off', async () => {
      const rows = Array.from({ length: 100 }, (_, i) => ({ _row_id: i, description: 'x'.repeat(50) }));
      const text = JSON.stringify({ body: rows, total_rows: 100, columns_returned: [] });
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < text.length; i += 200) res.write(text.slice(i, i + 200));
        res.end();
      });
      await refused(
        clientFor([server.origin], { limits: { maxResponseBytes: LIMIT } }).fetchBody(server.resourceUrl(), {
          rowIds: [],
        }),
        /more than 1000 bytes/,
      );
    });

    test('an answer of exactly maxResponseBytes is accepted', async () => {
      const base = JSON.stringify({ body: [{ _row_id: 0, d: '' }] });
      const padded = JSON.stringify({ body: [{ _row_id: 0, d: 'y'.repeat(LIMIT - Buffer.byteLength(base)) }] });
      assert.equal(Buffer.byteLength(padded), LIMIT);
      const server = await startServer((_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(LIMIT) });
        res.end(padded);
      });
      const rows = await clientFor([server.origin], { limits: { maxResponseBytes: LIMIT } }).fetchBody(
        server.resourceUrl(),
        { rowIds: [0] },
      );
      assert.equal(rows.length, 1);
    });
  });

  describe('answers that are not S2SP body rows', () => {
    const shapes: Array<[string, string]> = [
      ['malformed JSON', '{"body": [ {"_row_id": 0, '],
      ['empty response', ''],
      ['HTML', '<html>hello</html>'],
      ['a bare array of rows', '[{"_row_id":0}]'],
      ['rows under another key', '{"rows":[{"_row_id":0}]}'],
      ['body not an array', '{"body":"rows"}'],
      ['body null', '{"body":null}'],
      ['a row without _row_id', '{"body":[{"_row_id":0},{"description":"d"}]}'],
      ['a string _row_id', '{"body":[{"_row_id":"0"}]}'],
      ['a fractional _row_id', '{"body":[{"_row_id":0.5}]}'],
      ['a row that is not an object', '{"body":[{"_row_id":0}, 1]}'],
      ['JSON null', 'null'],
    ];
    for (const [name, text] of shapes) {
      test(`${name} → clear error`, async () => {
        const server = await startServer((_req, res) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(text);
        });
        await refused(
          clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }),
          /^The resource server at http:\/\/127\.0\.0\.1:\d+ answered with something other than S2SP body rows\.$/,
        );
      });
    }
  });

  describe('redirects are not followed', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      test(`${status} to another (even allowed) server → refused, the target sees no request`, async () => {
        const target = await startServer((_req, res) =>
          json(res, 200, { body: [{ _row_id: 0, stolen: true }], total_rows: 1, columns_returned: [] }),
        );
        const source = await startServer((_req, res) => {
          res.writeHead(status, { location: target.resourceUrl() });
          res.end();
        });
        await refused(
          clientFor([source.origin, target.origin]).fetchBody(source.resourceUrl(), { rowIds: [0] }),
          /resource server at http:\/\/127\.0\.0\.1:\d+/,
        );
        assert.equal(source.requests.length, 1);
        // A followed redirect would have reached the target before the fetch settled.
        assert.equal(target.requests.length, 0);
        assert.equal(target.connections, 0);
      });
    }

    test('a redirect to the same server is not followed either', async () => {
      let hits = 0;
      const server = await startServer((req, res) => {
        hits++;
        if (req.url?.startsWith('/s2sp/data/')) {
          res.writeHead(307, { location: '/elsewhere' });
          res.end();
        } else {
          json(res, 200, { body: [{ _row_id: 0 }], total_rows: 1, columns_returned: [] });
        }
      });
      await refused(clientFor([server.origin]).fetchBody(server.resourceUrl(), { rowIds: [0] }), /127\.0\.0\.1/);
      assert.equal(hits, 1);
    });
  });
});
