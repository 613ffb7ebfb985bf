import assert from 'node:assert/strict';
import { test } from 'node:test';
import { statsConfigFromEnv, type StatsServerConfig } from '../../apps/stats-server/src/stats-server.config';
import { checkEnvTable, LIMIT_VARIABLES, limitCases, readmeEnvTable } from '../support/env-table';

const STATS_VARIABLES = [
  'STATS_HOST',
  'STATS_PORT',
  'WEATHER_PORT',
  'STATS_ALLOWED_RESOURCE_ORIGINS',
  'STATS_RESOURCE_AUDIENCES',
  'STATS_DATA_DIR',
  'DATABASE_URL',
  'S2SP_FETCH_TIMEOUT_MS',
  'S2SP_ARROW_MIN_ROWS',
  'STATS_SUMMARY_MAX_TOKENS',
  'S2SP_ALLOWED_HOSTS',
  'S2SP_ALLOWED_ORIGINS',
  ...LIMIT_VARIABLES,
];

test('every stats-server variable the README lists: its default, and what setting it changes', () => {
  assert.deepEqual(
    [...STATS_VARIABLES].sort(),
    readmeEnvTable('stats-server'),
    "the variables the configuration reads are the README's table",
  );
  checkEnvTable(() => statsConfigFromEnv('http'), STATS_VARIABLES, [
    {
      env: {},
      expect: (config) => {
        assert.equal(config.host, '127.0.0.1');
        assert.equal(config.port, 3102);
        assert.deepEqual(
          config.allowedResourceOrigins,
          ['http://127.0.0.1:3101', 'http://localhost:3101'],
          'the weather server on 127.0.0.1 and localhost',
        );
        assert.deepEqual(config.resourceAudiences, {
          'http://127.0.0.1:3101': 'weather-server',
          'http://localhost:3101': 'weather-server',
        });
        assert.equal(config.dataDir, '.data/stats-server');
        assert.equal(config.databaseUrl, undefined);
        assert.equal(config.fetchTimeoutMs, 10_000);
        assert.equal(config.arrowMinRows, 500);
        assert.equal(config.summaryMaxTokens, 256);
      },
    },
    { env: { STATS_HOST: '0.0.0.0' }, expect: (config) => assert.equal(config.host, '0.0.0.0') },
    { env: { STATS_PORT: '4102' }, expect: (config) => assert.equal(config.port, 4102) },
    {
      env: { WEATHER_PORT: '4101' },
      expect: (config) => {
        assert.deepEqual(
          config.allowedResourceOrigins,
          ['http://127.0.0.1:4101', 'http://localhost:4101'],
          'the defaults follow the weather server',
        );
        assert.deepEqual(Object.keys(config.resourceAudiences), ['http://127.0.0.1:4101', 'http://localhost:4101']);
      },
    },
    {
      env: { STATS_ALLOWED_RESOURCE_ORIGINS: 'https://a.example.com, https://b.example.com' },
      expect: (config) =>
        assert.deepEqual(
          config.allowedResourceOrigins,
          ['https://a.example.com', 'https://b.example.com'],
          'comma-separated',
        ),
    },
    {
      env: { STATS_RESOURCE_AUDIENCES: 'https://a.example.com=resource-a,https://b.example.com=resource-b' },
      expect: (config) =>
        assert.deepEqual(config.resourceAudiences, {
          'https://a.example.com': 'resource-a',
          'https://b.example.com': 'resource-b',
        }),
    },
    { env: { STATS_DATA_DIR: '/var/lib/stats' }, expect: (config) => assert.equal(config.dataDir, '/var/lib/stats') },
    {
      env: { DATABASE_URL: 'postgresql://u@db:5432/s2sp' },
      expect: (config) => assert.equal(config.databaseUrl, 'postgresql://u@db:5432/s2sp'),
    },
    { env: { S2SP_FETCH_TIMEOUT_MS: '2500' }, expect: (config) => assert.equal(config.fetchTimeoutMs, 2_500) },
    { env: { S2SP_ARROW_MIN_ROWS: '0' }, expect: (config) => assert.equal(config.arrowMinRows, 0) },
    { env: { STATS_SUMMARY_MAX_TOKENS: '64' }, expect: (config) => assert.equal(config.summaryMaxTokens, 64) },
    ...limitCases((config: StatsServerConfig) => config.limits),
  ]);
});

test('a malformed STATS_RESOURCE_AUDIENCES fails the start, naming the variable', () => {
  const failure = (): unknown => {
    try {
      statsConfigFromEnv('http');
      return undefined;
    } catch (error) {
      return error;
    }
  };
  checkEnvTable(failure, STATS_VARIABLES, [
    {
      env: { STATS_RESOURCE_AUDIENCES: 'https://a.example.com' },
      expect: (error) => assert.match(String(error), /STATS_RESOURCE_AUDIENCES/),
    },
  ]);
});
