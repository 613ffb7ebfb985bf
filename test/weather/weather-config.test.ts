import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { weatherConfigFromEnv } from '../../apps/weather-server/src/weather-server.config';
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
  assert.throws(() => weatherConfigFromEnv('http'), /S2SP_DATA_PLANE_AUTH must be one of capability, bearer; got "open"/);
});

test('S2SP_ALLOWED_HOSTS and S2SP_ALLOWED_ORIGINS give the DNS-rebinding allowlists; unset, the defaults apply', () => {
  withEnv({ S2SP_ALLOWED_HOSTS: 'weather.example.com, localhost:3101', S2SP_ALLOWED_ORIGINS: 'https://console.example.com' }, () => {
    const config = weatherConfigFromEnv('http');
    assert.deepEqual(config.allowedHosts, ['weather.example.com', 'localhost:3101']);
    assert.deepEqual(config.allowedOrigins, ['https://console.example.com']);
  });
  withEnv({ S2SP_ALLOWED_HOSTS: undefined, S2SP_ALLOWED_ORIGINS: undefined }, () => {
    const config = weatherConfigFromEnv('http');
    assert.equal('allowedHosts' in config, false);
    assert.equal('allowedOrigins' in config, false);
  });
});
