import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { weatherConfigFromEnv, type WeatherServerConfig } from '../../apps/weather-server/src/weather-server.config';
import { checkEnvTable, LIMIT_VARIABLES, limitCases, readmeEnvTable } from '../support/env-table';
import { connectMcp, jsonOf } from '../support/mcp-client';
import { startWeather } from '../support/stack';
import { withEnv } from '../support/with-env';

const saved = process.env.S2SP_DATA_PLANE_AUTH;
afterEach(() => {
  if (saved === undefined) delete process.env.S2SP_DATA_PLANE_AUTH;
  else process.env.S2SP_DATA_PLANE_AUTH = saved;
});

test('the data-plane policy defaults to bearer over HTTP and to capability over stdio, where no caller token exists', () => {
  delete process.env.S2SP_DATA_PLANE_AUTH;
  assert.equal(weatherConfigFromEnv('http').dataPlaneAuth, 'bearer');
  assert.equal(weatherConfigFromEnv('stdio').dataPlaneAuth, 'capability');
});

test('S2SP_DATA_PLANE_AUTH overrides the default on either transport', () => {
  process.env.S2SP_DATA_PLANE_AUTH = 'capability';
  assert.equal(weatherConfigFromEnv('http').dataPlaneAuth, 'capability');
  process.env.S2SP_DATA_PLANE_AUTH = 'bearer';
  assert.equal(weatherConfigFromEnv('stdio').dataPlaneAuth, 'bearer');
});

test('a value that is not a policy fails the start, naming the variable and the choices', () => {
  process.env.S2SP_DATA_PLANE_AUTH = 'open';
  assert.throws(
    () => weatherConfigFromEnv('http'),
    /S2SP_DATA_PLANE_AUTH must be one of capability, bearer; got "open"/,
  );
});

const WEATHER_VARIABLES = [
  'WEATHER_HOST',
  'WEATHER_PORT',
  'WEATHER_PUBLIC_URL',
  'WEATHER_DATA_DIR',
  'DATABASE_URL',
  'S2SP_RESOURCE_TTL_MS',
  'S2SP_SWEEP_INTERVAL_MS',
  'S2SP_DATA_PLANE_AUTH',
  'S2SP_ALLOWED_HOSTS',
  'S2SP_ALLOWED_ORIGINS',
  'WEATHER_ALERT_UPDATE_INTERVAL_MS',
  ...LIMIT_VARIABLES,
];

test('every weather-server variable the README lists: its default, and what setting it changes', () => {
  assert.deepEqual(
    [...WEATHER_VARIABLES].sort(),
    readmeEnvTable('weather-server'),
    "the variables the configuration reads are the README's table",
  );
  checkEnvTable(() => weatherConfigFromEnv('http'), WEATHER_VARIABLES, [
    {
      env: {},
      expect: (config) => {
        assert.equal(config.host, '127.0.0.1');
        assert.equal(config.port, 3101);
        assert.equal(config.publicBaseUrl, undefined, 'resource_urls then use the listening address');
        assert.equal(config.dataDir, '.data/weather-server');
        assert.equal(config.databaseUrl, undefined);
        assert.equal(config.resourceTtlMs, 600_000);
        assert.equal(config.sweepIntervalMs, 60_000);
        assert.equal(config.alertUpdateIntervalMs, 0, 'the standard data set until advanced');
      },
    },
    {
      env: { WEATHER_ALERT_UPDATE_INTERVAL_MS: '60000' },
      expect: (config) => assert.equal(config.alertUpdateIntervalMs, 60_000),
    },
    { env: { WEATHER_HOST: '0.0.0.0' }, expect: (config) => assert.equal(config.host, '0.0.0.0') },
    { env: { WEATHER_PORT: '4101' }, expect: (config) => assert.equal(config.port, 4101) },
    {
      env: { WEATHER_PUBLIC_URL: 'https://weather.example.com' },
      expect: (config) => assert.equal(config.publicBaseUrl, 'https://weather.example.com'),
    },
    {
      env: { WEATHER_DATA_DIR: '/var/lib/weather' },
      expect: (config) => assert.equal(config.dataDir, '/var/lib/weather'),
    },
    {
      env: { DATABASE_URL: 'postgresql://u@db:5432/s2sp' },
      expect: (config) => assert.equal(config.databaseUrl, 'postgresql://u@db:5432/s2sp'),
    },
    { env: { S2SP_RESOURCE_TTL_MS: '5000' }, expect: (config) => assert.equal(config.resourceTtlMs, 5_000) },
    {
      env: { S2SP_SWEEP_INTERVAL_MS: '0' },
      expect: (config) => assert.equal(config.sweepIntervalMs, 0, '0 turns the sweeper off'),
    },
    ...limitCases((config: WeatherServerConfig) => config.limits),
  ]);
});

test('WEATHER_PUBLIC_URL is the base of the resource_urls the weather server issues', async () => {
  const publicUrl = 'https://weather.example.com';
  const config = withEnv({ WEATHER_PUBLIC_URL: publicUrl }, () => weatherConfigFromEnv('http'));
  const server = await startWeather({ publicBaseUrl: config.publicBaseUrl });
  const client = await connectMcp(server.url);
  try {
    const answer = jsonOf(
      await client.callTool({ name: 'get_alerts', arguments: { area: 'CA', abstract_domains: 'event' } }),
    );
    assert.match(answer.resource_url, /^https:\/\/weather\.example\.com\/s2sp\/data\/[\w-]{43}$/);
  } finally {
    await client.close();
    await server.close();
  }
});

test('S2SP_ALLOWED_HOSTS and S2SP_ALLOWED_ORIGINS give the DNS-rebinding allowlists; unset, the defaults apply', () => {
  withEnv(
    { S2SP_ALLOWED_HOSTS: 'weather.example.com, localhost:3101', S2SP_ALLOWED_ORIGINS: 'https://console.example.com' },
    () => {
      const config = weatherConfigFromEnv('http');
      assert.deepEqual(config.allowedHosts, ['weather.example.com', 'localhost:3101']);
      assert.deepEqual(config.allowedOrigins, ['https://console.example.com']);
    },
  );
  withEnv({ S2SP_ALLOWED_HOSTS: undefined, S2SP_ALLOWED_ORIGINS: undefined }, () => {
    const config = weatherConfigFromEnv('http');
    assert.equal('allowedHosts' in config, false);
    assert.equal('allowedOrigins' in config, false);
  });
});
