// SIGTERM on a real process of an example MCP server: it reports not-ready,
// answers the request it was handling and exits 0.
import assert from 'node:assert/strict';
import { request as httpRequest, type ClientRequest } from 'node:http';
import { after, describe, test } from 'node:test';
import { healthOnNewConnection as health, spawnApp, waitForNotReady, type AppProcess } from '../support/app-process';
import { freePort } from '../support/free-port';
import { bearerFor } from '../support/tokens';

/** A generous bound for a loaded 2-core machine: how long a stuck start may take, not a timing claim. */
const APP_READY_WITHIN_MS = 90_000;
/** Long enough that the test sees the not-ready answer before the server stops accepting. */
const NOT_READY_DELAY_MS = '3000';

/**
 * An MCP initialize POSTed in two parts: headers (with `Expect: 100-continue`,
 * so the server's "continue" proves it is handling the request) now, the body
 * when the test calls `finish()`.
 */
async function initializeInTwoParts(
  mcpUrl: string,
  authorization: string,
): Promise<{ finish(): Promise<{ status: number; text: string }> }> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'shutdown-test', version: '1.0.0' },
    },
  });
  let request!: ClientRequest;
  const answered = new Promise<{ status: number; text: string }>((resolve, reject) => {
    request = httpRequest(mcpUrl, {
      method: 'POST',
      agent: false,
      headers: {
        authorization,
        accept: 'application/json, text/event-stream',
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
        expect: '100-continue',
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.flushHeaders();
  });
  await Promise.race([
    new Promise((resolve) => request.once('continue', resolve)),
    answered.then((reply) => assert.fail(`answered early: ${reply.status} ${reply.text}`)),
  ]);
  return {
    finish() {
      request.end(body);
      return answered;
    },
  };
}

describe('graceful shutdown on SIGTERM: an MCP server (weather) as its own process', () => {
  const processes: AppProcess[] = [];
  after(() => Promise.all(processes.map((app) => app.kill())));

  test('/health answers 503, the request in flight is answered, exit code 0', async () => {
    const port = await freePort();
    const weatherProcess = spawnApp('apps/weather-server/src/main.js', {
      WEATHER_HOST: '127.0.0.1',
      WEATHER_PORT: String(port),
      WEATHER_DATA_DIR: ':memory:',
      DATABASE_URL: '',
      LOG_LEVELS: 'log,error,warn',
      S2SP_SHUTDOWN_GRACE_MS: '60000',
      S2SP_SHUTDOWN_NOT_READY_DELAY_MS: NOT_READY_DELAY_MS,
    });
    processes.push(weatherProcess);
    const baseUrl = `http://127.0.0.1:${port}`;
    await weatherProcess.waitForOutput('MCP at', APP_READY_WITHIN_MS);
    assert.equal((await health(baseUrl)).json.status, 'ok');

    const inFlight = await initializeInTwoParts(`${baseUrl}/mcp`, await bearerFor({ audience: 'weather-server' }));
    weatherProcess.signal('SIGTERM');
    const notReady = await waitForNotReady(baseUrl);
    assert.equal(notReady.json.status, 'shutting_down');

    const reply = await inFlight.finish();
    assert.equal(reply.status, 200, reply.text);
    assert.match(reply.text, /"serverInfo"/);
    assert.equal(await weatherProcess.exited, 0, weatherProcess.output());
    assert.match(weatherProcess.output(), /in-flight work finished; closing/);
  });
});
