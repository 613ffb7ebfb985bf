import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AlertCatalog } from '../../apps/weather-server/src/alerts/alert-catalog';
import {
  BENCH_RESOURCE_URL,
  compareTokens,
  countTokens,
  plainResultText,
  s2spControlPlaneText,
} from '../../bench/tokens/count-tokens';

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
    assert.deepEqual(Object.keys(payload), ['total_rows', 'columns', 'abstract_domains', 'body_domains', 'resource_url', 'abstract']);
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
});

describe('S2SP token savings on the CA alert set', () => {
  const rows = new AlertCatalog().forArea('CA');

  test('the CA set is the ~31-column NWS alert shape', () => {
    const columns = new Set(rows.flatMap((row) => Object.keys(row)));
    assert.ok(rows.length >= 10, `CA has ${rows.length} alerts`);
    assert.ok(columns.size >= 28 && columns.size <= 34, `${columns.size} columns`);
  });

  test('with 3 abstract columns the model reads at least 90% fewer tokens', () => {
    const result = compareTokens(rows, 'event,severity,urgency');
    assert.equal(result.abstractColumns, 3);
    assert.equal(result.rows, rows.length);
    assert.ok(result.s2spTokens > 0 && result.s2spTokens < result.plainTokens);
    assert.ok(
      result.savedPercent >= 90,
      `saved only ${result.savedPercent.toFixed(1)}% (${result.plainTokens} plain vs ${result.s2spTokens} S2SP tokens)`,
    );
    assert.ok(result.ratio >= 10);
  });

  test('more abstract columns cost more tokens', () => {
    const one = compareTokens(rows, 'event');
    const three = compareTokens(rows, 'event,severity,urgency');
    const five = compareTokens(rows, 'event,severity,urgency,status,areaDesc');
    assert.ok(one.s2spTokens < three.s2spTokens && three.s2spTokens < five.s2spTokens);
    assert.equal(one.plainTokens, five.plainTokens);
  });
});
