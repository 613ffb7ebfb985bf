import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ResourceUrlRedactor } from '../../libs/agent/src/resource-url-redactor';

const url = (n: number) => `http://127.0.0.1:4001/s2sp/data/token-${n}`;

test('every resource_url received is replaced wherever it appears in the text shown', () => {
  const redactor = new ResourceUrlRedactor({ keepMs: 60_000, maxUrls: 8 });
  redactor.add(url(1));
  redactor.add(url(2));
  assert.equal(
    redactor.redact(`fetch ${url(1)} failed; ${url(2)} and ${url(1)} again; ${url(3)} is not ours`),
    `fetch [resource_url] failed; [resource_url] and [resource_url] again; ${url(3)} is not ours`,
  );
});

test('a URL is redacted for keepMs after it arrived and only the maxUrls most recent are kept', () => {
  let now = 0;
  const redactor = new ResourceUrlRedactor({ keepMs: 1_000, maxUrls: 3 }, () => now);
  redactor.add(url(1));
  now = 500;
  for (const n of [2, 3]) redactor.add(url(n));
  redactor.add(url(1)); // received again: kept as the most recent
  redactor.add(url(4));
  assert.equal(redactor.size, 3, 'url 2, the oldest, went');
  assert.equal(redactor.redact(`${url(2)} ${url(1)}`), `${url(2)} [resource_url]`);

  now = 1_600;
  assert.equal(redactor.redact(`${url(1)} ${url(3)}`), `${url(1)} ${url(3)}`, 'their time is over');
  assert.equal(redactor.size, 0);
  redactor.add(url(5));
  redactor.clear();
  assert.equal(redactor.redact(url(5)), url(5));
});

test('S2spAgentSession: a consumer that quotes the resource_url it was handed shows the model [resource_url]', async () => {
  const { S2spAgentSession } = await import('@s2sp/agent');
  const resourceUrl = 'http://127.0.0.1:4001/s2sp/data/Vq3hJ9x0c2Yb7kLmN4pQ8rS1tU6wXzA5dEfGhIjKoP0';
  const schema = (names: string[]) => ({
    type: 'object',
    properties: Object.fromEntries(names.map((name) => [name, { type: 'string' }])),
  });
  const answer = {
    total_rows: 1,
    abstract_domains: ['event'],
    abstract: [{ _row_id: 0, event: 'Wind' }],
    body_domains: ['note'],
    resource_url: resourceUrl,
  };
  const server = {
    listTools: async () => ({
      tools: [
        { name: 'get_alerts', inputSchema: schema(['abstract_domains', 'mode']) },
        { name: 'draw_chart', inputSchema: schema(['abstract_data', 'resource_url', 'body_data', 'column_mapping']) },
      ],
    }),
    callTool: async ({ name, arguments: args }: { name: string; arguments: Record<string, unknown> }) =>
      name === 'get_alerts'
        ? { content: [{ type: 'text', text: JSON.stringify(answer) }] }
        : { isError: true, content: [{ type: 'text', text: `could not fetch ${String(args.resource_url)}: 404` }] },
  };
  const session = await S2spAgentSession.open({ servers: { only: server }, countTokens: false });
  const issued = await session.call('get_alerts', { abstract_domains: 'event' });
  assert.equal(issued.isError, false, issued.text);
  const { handle } = JSON.parse(issued.text) as {
    handle: string;
  };
  const refused = await session.call('draw_chart', { handle });
  assert.equal(refused.isError, true);
  assert.equal(refused.text, 'could not fetch [resource_url]: 404');
});
