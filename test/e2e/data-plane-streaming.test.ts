import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ResourcePublisher, S2spModule } from '@s2sp/core';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { bigTableRow, checksumOf, expectedChecksum } from '../support/big-table';
import { HTTP_PLATFORMS } from '../support/stack';

/** About 4 MB of JSON: dozens of chunks, more than the socket buffers hold. */
const ROWS = 50_000;

/**
 * An answer of many chunks is written as the client reads it, on node's response
 * under either platform (on Fastify the reply is hijacked, so Fastify never sends too).
 */
for (const platform of HTTP_PLATFORMS)
  describe(`a data-plane answer of many chunks (${platform})`, () => {
    let app: INestApplication;
    let resourceUrl = '';

    before(async () => {
      let baseUrl = '';
      @Module({
        imports: [
          S2spModule.forRoot({
            publicBaseUrl: () => baseUrl,
            database: { dataDir: ':memory:' },
            dataPlaneAuth: 'capability',
            sweepIntervalMs: 0,
          }),
        ],
      })
      class StreamingServerModule {}
      const options = { logger: ['error' as const, 'warn' as const], bodyParser: false };
      app =
        platform === 'fastify'
          ? await NestFactory.create(StreamingServerModule, new FastifyAdapter(), options)
          : await NestFactory.create(StreamingServerModule, options);
      await app.listen(0, '127.0.0.1');
      baseUrl = (await app.getUrl()).replace('[::1]', '127.0.0.1');
      const table = Array.from({ length: ROWS }, (_, i) => bigTableRow(i));
      resourceUrl = await app.get(ResourcePublisher).publish('big_table', splitRows(table, ['event']));
    });
    after(async () => {
      await app?.close();
    });

    test('is sent chunked, and a client that stops reading for a while still gets every row', async () => {
      const { headers, text } = await new Promise<{ headers: Record<string, unknown>; text: string }>(
        (resolve, reject) => {
          const exchange = request(
            resourceUrl,
            { method: 'POST', headers: { 'content-type': 'application/json' } },
            (response) => {
              // Not reading: the server's writes back up until it waits for `drain`.
              response.pause();
              setTimeout(() => {
                const chunks: Buffer[] = [];
                response.on('data', (chunk: Buffer) => chunks.push(chunk));
                response.once('end', () =>
                  resolve({ headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }),
                );
                response.once('error', reject);
                response.resume();
              }, 300);
            },
          );
          exchange.once('error', reject);
          exchange.end('{}');
        },
      );
      assert.equal(headers['transfer-encoding'], 'chunked');
      assert.equal(headers['content-length'], undefined);
      const answer = JSON.parse(text) as { body: Array<Record<string, unknown>>; total_rows: number };
      assert.equal(answer.total_rows, ROWS);
      assert.equal(checksumOf(answer.body as never), expectedChecksum(ROWS));
    });
  });
