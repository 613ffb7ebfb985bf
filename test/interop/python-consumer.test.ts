import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { interopScript, python3SkipReason, runJsonScript } from '../support/python';
import { fetchResource, startWeather } from '../support/stack';

const CONSUMER_SCRIPT = interopScript('python_consumer.py');

type Row = Record<string, unknown> & { _row_id: number };

/** Runs the stdlib-only Python consumer on `resourceUrl`, the chosen abstract rows on its stdin. */
function runPythonConsumer(resourceUrl: string, abstract: Row[]) {
  return runJsonScript('python3', [CONSUMER_SCRIPT, resourceUrl], abstract);
}

/** A weather server under `overrides` and an MCP agent connected to it, for the enclosing suite (none when python3 is missing). */
function weatherForSuite(
  skipReason: string | undefined,
  overrides: Parameters<typeof startWeather>[0],
): { agent: () => Client } {
  let weather: RunningMcpServer | undefined;
  let agent: Client | undefined;
  before(async () => {
    if (skipReason) return;
    weather = await startWeather(overrides);
    agent = await connectMcp(weather.url);
  });
  after(async () => {
    await agent?.close();
    await weather?.close();
  });
  return { agent: () => agent! };
}

/**
 * A consumer nobody here wrote against our code: it knows only the design's wire
 * description (POST {"row_ids": [...]}, read `body`, merge by `_row_id`) and sends no token.
 */
describe('a Python consumer written from the S2SP wire description (stdlib only)', () => {
  const skipReason = python3SkipReason();

  describe('against a weather server under dataPlaneAuth "capability"', () => {
    const { agent } = weatherForSuite(skipReason, { dataPlaneAuth: 'capability' });

    test('fetches the chosen rows with the resource_url alone and merges them with the abstract by _row_id', async (t) => {
      if (skipReason) {
        t.skip(skipReason);
        return;
      }
      const fullRows = jsonOf<Array<Record<string, unknown>>>(
        await agent().callTool({ name: 'get_alerts', arguments: { area: 'CA' } }),
      );
      // Named consumer in _meta: under "capability" the resource is bound to nobody regardless.
      const answer = jsonOf(
        await agent().callTool({
          name: 'get_alerts',
          arguments: { area: 'CA', abstract_domains: 'event,severity' },
          _meta: { 's2sp/consumer': 'stats-server' },
        }),
      );
      const windRows = (answer.abstract as Row[]).filter((row) => String(row.event).includes('Wind'));
      assert.ok(windRows.length > 0 && windRows.length < answer.total_rows, 'the agent picks some of the rows');

      const run = await runPythonConsumer(answer.resource_url, windRows);
      assert.equal(run.exitCode, 0, run.stderr);
      assert.deepEqual(
        run.output.rows,
        windRows.map((row) => ({ _row_id: row._row_id, ...fullRows[row._row_id] })),
        'each merged row is the whole alert: abstract columns plus every body column',
      );

      const again = await runPythonConsumer(answer.resource_url, windRows);
      assert.equal(again.exitCode, 1);
      assert.equal(again.output.status, 404, 'still single-use');
      assert.equal(again.output.error.error.code, 'RESOURCE_NOT_FOUND');
    });
  });

  describe('against a weather server under dataPlaneAuth "bearer" (the HTTP default)', () => {
    const { agent } = weatherForSuite(skipReason, {});

    test('is refused with 401 and the JSON error body, and the refusal does not consume the resource', async (t) => {
      if (skipReason) {
        t.skip(skipReason);
        return;
      }
      const answer = jsonOf(
        await agent().callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
      );
      const run = await runPythonConsumer(answer.resource_url, answer.abstract.slice(0, 2));
      assert.equal(run.exitCode, 1);
      assert.deepEqual(run.output, {
        status: 401,
        error: { error: { code: 'UNAUTHENTICATED', message: 'Invalid or expired credentials.' } },
      });

      const withToken = await fetchResource(answer.resource_url, { row_ids: [0, 1] });
      assert.equal(withToken.status, 200, "the caller's own token still fetches it");
      assert.deepEqual(
        withToken.json.body.map((row: Row) => row._row_id),
        [0, 1],
      );
    });
  });
});
