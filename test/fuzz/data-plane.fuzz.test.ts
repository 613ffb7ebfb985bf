import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { RESOURCE_STORE, ResourcePublisher, type ResourceStore, type RunningMcpServer } from '@s2sp/core';
import { ARROW_STREAM_MEDIA_TYPE } from '../../libs/s2sp/src/data-plane/arrow/arrow-media-type';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { hashResourceToken } from '../../libs/s2sp/src/protocol/resource-token';
import {
  anyString,
  fuzz,
  fuzzSettings,
  fuzzTimeout,
  jsonText,
  objectText,
  PROTOTYPE_KEYS,
  quotedJson,
} from '../support/fuzz';
import { sampleRows } from '../support/resource-fixtures';
import { HTTP_PLATFORMS, startWeather } from '../support/stack';
import { ALL_TEST_SCOPES, bearerFor, TEST_SUBJECT } from '../support/tokens';

// Invariant: against a live single-use token, a request the data plane refuses
// (any body, content type, Accept or credentials) leaves the token live and is
// never a 404 or a 5xx; a request it serves (200) consumes the token, so the same
// fetch again is a 404, and of valid fetches racing for one token exactly one is
// served. Every refusal is a JSON error with a code and no stack trace, and no
// exchange outlives its timeout.

const ROWS = 6;
const COLUMNS = ['event', 'headline', 'severity', 'affected', 'note'];
const EXCHANGE_TIMEOUT_MS = 10_000;

type Credentials = 'caller' | 'other-subject' | 'other-audience' | 'no-scope' | 'garbage' | 'none';

interface FetchCase {
  token: 'live' | 'mutated' | 'random';
  body: string | Uint8Array | undefined;
  contentType: string | undefined;
  accept: string | undefined;
  credentials: Credentials;
  race: number;
}

const rowIdText = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: ROWS - 1 }).map(String) },
  { weight: 1, arbitrary: fc.constantFrom('-1', '0.5', '"0"', '6', '1e400', 'null', '9007199254740993') },
);
const columnText = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...COLUMNS, '_row_id').map(quotedJson) },
  { weight: 1, arbitrary: fc.oneof(anyString.map(quotedJson), fc.constantFrom('""', '1', 'null')) },
);
const selectionText = fc
  .record(
    {
      row_ids: fc.oneof(
        fc.array(rowIdText, { maxLength: 8 }).map((ids) => `[${ids.join(',')}]`),
        fc.constantFrom('null', '3', '"0"', '{}'),
      ),
      columns: fc.oneof(
        fc.array(columnText, { maxLength: 4 }).map((names) => `[${names.join(',')}]`),
        fc.constantFrom('null', '"event"'),
      ),
      extra: fc.constantFrom(...PROTOTYPE_KEYS, 'rows', 'format'),
    },
    { requiredKeys: [] },
  )
  .map(({ extra, ...members }) =>
    objectText([...Object.entries(members), ...(extra === undefined ? [] : ([[extra, '1']] as const))]),
  );

const bodyArbitrary = fc.oneof(
  { weight: 8, arbitrary: selectionText },
  { weight: 1, arbitrary: jsonText(['row_ids', 'columns']) },
  {
    weight: 1,
    arbitrary: fc.tuple(selectionText, fc.nat()).map(([text, at]) => text.slice(0, at % (text.length + 1))),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<string | Uint8Array | undefined>(
      undefined,
      '',
      'null',
      Uint8Array.from([0x7b, 0xff, 0x7d]),
      Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    ),
  },
);

const fetchCase: fc.Arbitrary<FetchCase> = fc.record({
  token: fc.constantFrom<FetchCase['token']>('live', 'live', 'live', 'mutated', 'random'),
  body: bodyArbitrary,
  contentType: fc.constantFrom(
    undefined,
    'application/json',
    'application/json',
    'application/json; charset=utf-8',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/jsonx',
    'APPLICATION/JSON',
  ),
  accept: fc.constantFrom(
    undefined,
    'application/json',
    ARROW_STREAM_MEDIA_TYPE,
    `${ARROW_STREAM_MEDIA_TYPE}, application/json;q=0.5`,
    'text/html',
    '*/*',
    'application/json;q=0',
  ),
  credentials: fc.constantFrom<Credentials>(
    'caller',
    'caller',
    'caller',
    'other-subject',
    'other-audience',
    'no-scope',
    'garbage',
    'none',
  ),
  race: fc.constantFrom(1, 1, 1, 1, 2, 3),
});

function replaceCharAt(text: string, at: number): string {
  const i = at % text.length;
  return text.slice(0, i) + (text[i] === 'A' ? 'B' : 'A') + text.slice(i + 1);
}

describe('fuzz: data plane on live tokens', () => {
  const servers: RunningMcpServer[] = [];
  const bearers = new Map<Credentials, string | undefined>();

  before(async () => {
    for (const platform of HTTP_PLATFORMS) servers.push(await startWeather({ platform }));
    bearers.set('caller', await bearerFor({ audience: 'weather-server' }));
    bearers.set('other-subject', await bearerFor({ audience: 'weather-server', subject: 'mallory' }));
    bearers.set('other-audience', await bearerFor({ audience: 'stats-server' }));
    bearers.set(
      'no-scope',
      await bearerFor({
        audience: 'weather-server',
        scopes: ALL_TEST_SCOPES.filter((scope) => scope !== 'weather:read'),
      }),
    );
    bearers.set('garbage', 'Bearer not.a.token');
    bearers.set('none', undefined);
  });
  after(async () => {
    for (const server of servers) await server.close();
  });

  /** A fresh resource issued to the test caller, as get_alerts issues one: its URL. */
  function issue(server: RunningMcpServer): Promise<string> {
    return server.app.get(ResourcePublisher).publish('get_alerts', splitRows(sampleRows(ROWS), ['event']), {
      caller: TEST_SUBJECT,
      callerScopes: [...ALL_TEST_SCOPES],
      requiredScopes: ['weather:read'],
    });
  }

  async function post(
    url: string,
    input: Pick<FetchCase, 'body' | 'contentType' | 'accept' | 'credentials'>,
  ): Promise<{ status: number; contentType: string | null; body: Buffer }> {
    const authorization = bearers.get(input.credentials);
    const response = await fetch(url, {
      method: 'POST',
      headers: {
        ...(input.contentType ? { 'content-type': input.contentType } : {}),
        ...(input.accept ? { accept: input.accept } : {}),
        ...(authorization ? { authorization } : {}),
      },
      ...(input.body === undefined ? {} : { body: input.body }),
      signal: AbortSignal.timeout(EXCHANGE_TIMEOUT_MS),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      body: Buffer.from(await response.arrayBuffer()),
    };
  }

  function checkRefusal(answer: { status: number; body: Buffer }): void {
    assert.ok(answer.status >= 400 && answer.status < 500, `status ${answer.status}`);
    const text = answer.body.toString('utf8');
    assert.doesNotMatch(text, /\n\s+at |\bat [^\s"]+ \(.*:\d+:\d+\)/, 'no stack trace');
    const json = JSON.parse(text) as { error?: { code?: unknown; message?: unknown } };
    assert.equal(typeof json.error?.code, 'string', text.slice(0, 200));
    assert.equal(typeof json.error?.message, 'string');
  }

  test(
    'a refused request leaves the token live, a served one consumes it exactly once, never a 5xx',
    { timeout: fuzzTimeout(100) },
    async () => {
      const current = new Map<RunningMcpServer, string>();
      const store = (server: RunningMcpServer): ResourceStore => server.app.get<ResourceStore>(RESOURCE_STORE);
      const tokenOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);
      const isLive = async (server: RunningMcpServer, url: string): Promise<boolean> =>
        (await store(server).findLive(hashResourceToken(tokenOf(url)))) !== null;

      const seen = { served: 0, refused: 0 };
      const property = fc.asyncProperty(
        fc.nat({ max: servers.length - 1 }),
        fetchCase,
        fc.nat(),
        async (serverIndex, input, position) => {
          const server = servers[serverIndex];
          if (!current.has(server)) current.set(server, await issue(server));
          const live = current.get(server)!;
          const url =
            input.token === 'live'
              ? live
              : input.token === 'mutated'
                ? `${live.slice(0, live.lastIndexOf('/') + 1)}${replaceCharAt(tokenOf(live), position)}`
                : `${server.url}/s2sp/data/${replaceCharAt('x'.repeat(43), position)}`;
          const answers = await Promise.all(Array.from({ length: input.race }, () => post(url, input)));
          const served = answers.filter((answer) => answer.status === 200);
          seen.served += served.length;
          seen.refused += answers.length - served.length;
          for (const answer of answers) if (answer.status !== 200) checkRefusal(answer);

          if (input.token !== 'live') {
            assert.equal(served.length, 0, 'no other token serves');
            assert.ok(await isLive(server, live), 'the live token is untouched');
            return;
          }
          assert.ok(served.length <= 1, `${served.length} requests were served from one single-use token`);
          if (served.length === 0) {
            assert.ok(
              answers.every((answer) => answer.status !== 404),
              `a live token is not "not found": ${answers.map((answer) => answer.status)}`,
            );
            assert.ok(await isLive(server, live), 'a refused request leaves the token live');
            return;
          }
          // Racing requests: the losers found the token spent, nothing else.
          for (const answer of answers) if (answer.status !== 200) assert.equal(answer.status, 404);
          assert.match(served[0].contentType ?? '', /^application\/json|^application\/vnd\.apache\.arrow\.stream/);
          assert.equal(await isLive(server, live), false, 'a served request consumes the token');
          const again = await post(live, {
            body: '{}',
            contentType: 'application/json',
            accept: undefined,
            credentials: 'caller',
          });
          assert.equal(again.status, 404, 'the token serves once');
          current.set(server, await issue(server));
        },
      );
      await fuzz('data plane', property);
      // Both halves of the invariant were exercised (a replay of one shrunk case is exempt).
      if (fuzzSettings().numRuns >= 100 && !fuzzSettings().path)
        assert.ok(seen.served > 0 && seen.refused > 0, JSON.stringify(seen));
    },
  );
});
