import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { fetchResource, HTTP_PLATFORMS, startWeather } from '../support/stack';
import { bearerFor } from '../support/tokens';
import { ARROW_STREAM_MEDIA_TYPE } from '../../libs/s2sp/src/data-plane/arrow/arrow-media-type';
import { decodeArrowStream } from '../../libs/s2sp/src/data-plane/arrow/decode-arrow-stream';

for (const platform of HTTP_PLATFORMS)
  describe(`data plane over HTTP (${platform})`, () => {
    let weather: RunningMcpServer;
    let agent: Client;

    before(async () => {
      weather = await startWeather({ platform });
      agent = await connectMcp(weather.url);
    });

    after(async () => {
      await agent?.close();
      await weather?.close();
    });

    async function issue(abstract = 'event,severity'): Promise<{
      resource_url: string;
      columns: string[];
      body_domains: string[];
      total_rows: number;
      abstract: Array<Record<string, unknown>>;
    }> {
      return jsonOf(
        await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: abstract } }),
      ) as never;
    }

    test('GET /s2sp/health answers', async () => {
      const response = await fetch(`${weather.url}/s2sp/health`);
      assert.equal(response.status, 200);
      assert.deepEqual(await response.json(), {
        status: 'ok',
        protocol: 's2sp',
        version: '1',
        formats: ['application/json', ARROW_STREAM_MEDIA_TYPE],
      });
    });

    test('resource tools advertise the data-plane formats in their _meta', async () => {
      const { tools } = await agent.listTools();
      const getAlerts = tools.find((tool) => tool.name === 'get_alerts');
      assert.deepEqual(getAlerts?._meta?.['s2sp/data_formats'], ['application/json', ARROW_STREAM_MEDIA_TYPE]);
    });

    test('Accept: Arrow IPC gets the same rows as JSON, as an Arrow stream; JSON stays the default', async () => {
      const [asJson, asArrow] = [await issue(), await issue()];
      const selection = { row_ids: [3, 1, 7], columns: ['event', 'description', 'onset'] };
      const json = await fetchResource(asJson.resource_url, selection);
      const response = await fetch(asArrow.resource_url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: `${ARROW_STREAM_MEDIA_TYPE}, application/json;q=0.5`,
          authorization: await bearerFor({ audience: 'weather-server' }),
        },
        body: JSON.stringify(selection),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('content-type'), ARROW_STREAM_MEDIA_TYPE);
      const decoded = await decodeArrowStream(response.body as unknown as AsyncIterable<Uint8Array>, {
        maxBytes: 10_000_000,
      });
      assert.deepEqual(decoded.columns, ['event', 'description', 'onset']);
      assert.deepEqual(decoded.rows, json.json.body);
    });

    test('a Python-SDK style fetch ({"row_ids": [...]}) gets the full data of the selected rows: every column, abstract ones too', async () => {
      const resource = await issue();
      const { status, json } = await fetchResource(resource.resource_url, { row_ids: [5, 0, 2] });
      assert.equal(status, 200);
      assert.deepEqual(Object.keys(json), ['body', 'total_rows', 'columns_returned']);
      assert.deepEqual(
        json.body.map((row: { _row_id: number }) => row._row_id),
        [0, 2, 5],
      );
      assert.equal(json.total_rows, 3);
      assert.deepEqual(json.columns_returned, ['_row_id', ...resource.columns]);
      assert.deepEqual(Object.keys(json.body[0]), ['_row_id', ...resource.columns]);
      assert.equal(
        json.body[1].event,
        resource.abstract[2].event,
        'the cached data is the full data the abstract came from',
      );
    });

    test('columns may name abstract and body columns alike', async () => {
      const resource = await issue();
      const { status, json } = await fetchResource(resource.resource_url, {
        row_ids: [1],
        columns: ['event', 'description', '_row_id'],
      });
      assert.equal(status, 200);
      assert.deepEqual(json.columns_returned, ['_row_id', 'event', 'description']);
      assert.deepEqual(Object.keys(json.body[0]), ['_row_id', 'event', 'description']);
      assert.equal(json.body[0].event, resource.abstract[1].event);
    });

    test('empty or omitted lists mean all rows and all columns; columns narrows, _row_id always included', async () => {
      const all = await issue();
      const everything = await fetchResource(all.resource_url);
      assert.equal(everything.status, 200);
      assert.equal(everything.json.body.length, all.total_rows);
      assert.deepEqual(everything.json.columns_returned, ['_row_id', ...all.columns]);

      const narrow = await issue();
      const some = await fetchResource(narrow.resource_url, { row_ids: [], columns: ['description'] });
      assert.equal(some.status, 200);
      assert.equal(some.json.body.length, narrow.total_rows);
      assert.deepEqual(some.json.columns_returned, ['_row_id', 'description']);
      assert.deepEqual(Object.keys(some.json.body[1]), ['_row_id', 'description']);
    });

    test('rejected requests answer stable error codes and do not consume the token', async () => {
      const resource = await issue();
      const cases: Array<[unknown, number, string]> = [
        ['{"row_ids": [0,', 400, 'MALFORMED_JSON'],
        [{ row_ids: [0.5] }, 400, 'INVALID_REQUEST'],
        [{ row_ids: ['0'] }, 400, 'INVALID_REQUEST'],
        [{ row_ids: [-1] }, 400, 'INVALID_REQUEST'],
        [{ row_ids: 3 }, 400, 'INVALID_REQUEST'],
        [{ rows: [1] }, 400, 'INVALID_REQUEST'],
        [{ columns: ['colour'] }, 400, 'UNKNOWN_COLUMN'],
        [{ row_ids: [100000] }, 400, 'UNKNOWN_ROW_ID'],
        [{ row_ids: Array.from({ length: 100_001 }, (_, i) => i % 10) }, 413, 'PAYLOAD_TOO_LARGE'],
        [{ row_ids: Array.from({ length: 200_000 }, (_, i) => 100_000 + i) }, 413, 'PAYLOAD_TOO_LARGE'],
      ];
      for (const [body, status, code] of cases) {
        const response = await fetchResource(resource.resource_url, body);
        assert.equal(response.status, status, JSON.stringify(body).slice(0, 80));
        assert.equal(response.json.error.code, code);
        assert.equal(typeof response.json.error.message, 'string');
        assert.doesNotMatch(JSON.stringify(response.json), /\bat .*:\d+:\d+/, 'no stack trace');
      }
      const unknownColumn = await fetchResource(resource.resource_url, { columns: ['colour'] });
      assert.match(unknownColumn.json.error.message, /colour.*Columns: .*event.*description/);
      const tooMany = await fetchResource(resource.resource_url, { row_ids: Array.from({ length: 100_001 }, () => 0) });
      assert.match(tooMany.json.error.message, /row_ids names 100001 rows; at most 100000 per fetch/);
      const tooBig = await fetchResource(resource.resource_url, {
        row_ids: Array.from({ length: 200_000 }, (_, i) => 100_000 + i),
      });
      assert.match(tooBig.json.error.message, /larger than 1048576 bytes/);

      const served = await fetchResource(resource.resource_url, { row_ids: [0] });
      assert.equal(served.status, 200, 'the token survived every rejected request');
      const replay = await fetchResource(resource.resource_url, { row_ids: [0] });
      assert.equal(replay.status, 404);
      assert.equal(replay.json.error.code, 'RESOURCE_NOT_FOUND');
    });

    test('unknown and malformed tokens are 404 without telling them apart', async () => {
      for (const token of ['a'.repeat(43), 'short', '..%2F..%2Fetc']) {
        const response = await fetchResource(`${weather.url}/s2sp/data/${token}`, {});
        assert.equal(response.status, 404);
        assert.equal(response.json.error.code, 'RESOURCE_NOT_FOUND');
      }
    });

    test('a non-JSON content type is refused with 415', async () => {
      const resource = await issue();
      const authorization = await bearerFor({ audience: 'weather-server' });
      const response = await fetch(resource.resource_url, {
        method: 'POST',
        headers: { 'content-type': 'text/plain', authorization },
        body: 'row_ids=1',
      });
      assert.equal(response.status, 415);
      assert.equal(((await response.json()) as { error: { code: string } }).error.code, 'UNSUPPORTED_MEDIA_TYPE');
      assert.equal((await fetchResource(resource.resource_url)).status, 200);
    });
  });
