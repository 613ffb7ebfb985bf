import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { RunningMcpServer } from '@s2sp/core';
import { AlertCatalog } from '../../apps/weather-server/src/alerts/alert-catalog';
import {
  BENCH_RESOURCE_URL,
  compareTokens,
  countTokens,
  plainResultText,
  s2spControlPlaneText,
} from '../../bench/tokens/count-tokens';
import { connectMcp, textOf } from '../support/mcp-client';
import { o200kTokens } from '../support/o200k';
import { findRepoRoot } from '../support/repo-root';
import { startWeather } from '../support/stack';

describe('token counting (bench/tokens/count-tokens.ts)', () => {
  test('counts o200k_base tokens offline', () => {
    assert.equal(countTokens(''), 0);
    assert.equal(countTokens('hello world'), 2);
    assert.ok(countTokens('{"event":"Wind Advisory","severity":"Moderate"}') > 5);
  });

  test('the benchmark resource_url is a data-plane URL with a 43-character token', () => {
    assert.match(BENCH_RESOURCE_URL, /^http:\/\/127\.0\.0\.1:3101\/s2sp\/data\/[A-Za-z0-9_-]{43}$/);
  });

  test('the S2SP text is the control-plane envelope with only abstract columns in the rows', () => {
    const rows = [
      { event: 'Wind Advisory', severity: 'Moderate', description: 'long text' },
      { event: 'Flood Watch', severity: 'Minor', description: 'more text' },
    ];
    const payload = JSON.parse(s2spControlPlaneText(rows, 'event')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(payload), [
      'total_rows',
      'columns',
      'abstract_domains',
      'body_domains',
      'resource_url',
      'abstract',
    ]);
    assert.deepEqual(payload, {
      total_rows: 2,
      columns: ['event', 'severity', 'description'],
      abstract_domains: ['event'],
      body_domains: ['severity', 'description'],
      resource_url: BENCH_RESOURCE_URL,
      abstract: [
        { _row_id: 0, event: 'Wind Advisory' },
        { _row_id: 1, event: 'Flood Watch' },
      ],
    });
    assert.equal(plainResultText(rows), JSON.stringify(rows));
  });

  test('the compact S2SP text (abstract_format "columns") is the answer the resource tool sends in that layout', () => {
    const rows = [
      { event: 'Wind Advisory', severity: 'Moderate', description: 'long text' },
      { event: 'Flood Watch', severity: 'Minor', description: 'more text' },
    ];
    assert.equal(
      s2spControlPlaneText(rows, 'event', 'columns'),
      JSON.stringify({
        total_rows: 2,
        body_domains: ['severity', 'description'],
        resource_url: BENCH_RESOURCE_URL,
        abstract: {
          columns: ['_row_id', 'event'],
          rows: [
            [0, 'Wind Advisory'],
            [1, 'Flood Watch'],
          ],
        },
      }),
    );
  });
});

type AnswerForm = 'default' | 'compact';

interface StatedSavings {
  california: number;
  fiveThousand: number;
}

/**
 * The savings the README states with 3 abstract columns, in per cent: the
 * default answer first, then the compact one, each for California's alerts
 * and over 5,000 alerts.
 */
function readmeSavings(): Record<AnswerForm, StatedSavings> {
  const readme = readFileSync(join(findRepoRoot(__dirname), 'README.md'), 'utf8');
  const claims = [
    ...readme.matchAll(
      /\*\*(\d+(?:\.\d+)?)% fewer tokens\*\* for California's alerts\s+and\s+(\d+(?:\.\d+)?)% fewer\s+over\s+5,000\s+alerts/g,
    ),
  ];
  assert.equal(claims.length, 2, 'the README states the savings of the default answer, then of the compact one');
  const [standard, compact] = claims.map((claim) => ({
    california: Number(claim[1]),
    fiveThousand: Number(claim[2]),
  })) as [StatedSavings, StatedSavings];
  return { default: standard, compact };
}

describe('S2SP token savings on the CA alert set, measured on what get_alerts sends', () => {
  const ABSTRACT_DOMAINS = ['event', 'event,severity,urgency', 'event,severity,urgency,status,areaDesc'] as const;
  /** The text content the model would read of get_alerts on CA: plain, and with each of ABSTRACT_DOMAINS. */
  let plainText: string;
  const s2spTexts = new Map<string, string>();

  // Every answer is fetched before any counting: the counting blocks this process, the server
  // included, for seconds on a busy machine, long enough for an idle keep-alive connection to be
  // closed under the next request.
  let compactText: string;

  before(async () => {
    const weather: RunningMcpServer = await startWeather();
    const agent: Client = await connectMcp(weather.url);
    try {
      const answerText = async (args: Record<string, unknown>): Promise<string> => {
        const result = await agent.callTool({ name: 'get_alerts', arguments: { area: 'CA', ...args } });
        assert.notEqual(result.isError, true, textOf(result));
        return textOf(result);
      };
      plainText = await answerText({});
      for (const domains of ABSTRACT_DOMAINS) s2spTexts.set(domains, await answerText({ abstract_domains: domains }));
      compactText = await answerText({ abstract_domains: 'event,severity,urgency', abstract_format: 'columns' });
    } finally {
      await agent.close();
      await weather.close();
    }
  });

  test('the plain answer is the whole ~31-column NWS alert table', () => {
    const rows = JSON.parse(plainText) as Array<Record<string, unknown>>;
    const columns = new Set(rows.flatMap((row) => Object.keys(row)));
    assert.ok(rows.length >= 10, `CA has ${rows.length} alerts`);
    assert.ok(columns.size >= 28 && columns.size <= 34, `${columns.size} columns`);
  });

  test('with 3 abstract columns the model reads the share of tokens the README states', () => {
    const s2spText = s2spTexts.get('event,severity,urgency')!;
    assert.deepEqual(JSON.parse(s2spText).abstract_domains, ['event', 'severity', 'urgency']);
    assertStated('default', o200kTokens(plainText), o200kTokens(s2spText), readmeSavings().default.california);
  });

  test('the compact answer with the same 3 columns saves what the README states, and at least 96.5%', () => {
    assert.deepEqual(JSON.parse(compactText).abstract.columns, ['_row_id', 'event', 'severity', 'urgency']);
    const plain = o200kTokens(plainText);
    const savedPercent = assertStated('compact', plain, o200kTokens(compactText), readmeSavings().compact.california);
    assert.ok(savedPercent >= 96.5, `compact saves ${savedPercent.toFixed(2)}%`);
  });

  test('more abstract columns cost more tokens', () => {
    const [one, three, five] = ABSTRACT_DOMAINS.map((domains) => o200kTokens(s2spTexts.get(domains)!)) as [
      number,
      number,
      number,
    ];
    assert.ok(one < three && three < five, `${one} < ${three} < ${five}`);
  });
});

/**
 * Asserts that the measured saving is the stated one and returns it. The
 * README rounds to 0.1; the live resource_url's port may cost a token or two
 * more than the benchmark's fixed one, which moves the figure by about 0.02.
 */
function assertStated(form: AnswerForm, plain: number, s2sp: number, stated: number): number {
  const savedPercent = (100 * (plain - s2sp)) / plain;
  assert.ok(
    Math.abs(savedPercent - stated) <= 0.1,
    `${form} answer: measured ${savedPercent.toFixed(2)}% saved (${plain} plain vs ${s2sp} S2SP tokens), README states ${stated}%`,
  );
  return savedPercent;
}

// Counting the 5,000 plain rows (about 3.5 million tokens) takes seconds of CPU: done once, for both forms.
describe('S2SP token savings over 5,000 generated alerts (bench/tokens)', () => {
  const rows = new AlertCatalog().large(5_000);

  test('both answers with 3 of the 31 columns save what the README states; the compact one at least 98%', () => {
    const stated = readmeSavings();
    const standard = compareTokens(rows, 'event,severity,urgency', 'rows');
    const compact = compareTokens(rows, 'event,severity,urgency', 'columns');
    assertStated('default', standard.plainTokens, standard.s2spTokens, stated.default.fiveThousand);
    assertStated('compact', compact.plainTokens, compact.s2spTokens, stated.compact.fiveThousand);
    assert.ok(compact.savedPercent >= 98, `compact saves ${compact.savedPercent.toFixed(2)}%`);
  });
});
