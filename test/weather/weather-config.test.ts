import assert from 'node:assert/strict';
import { afterEach, test } from 'node:test';
import { weatherConfigFromEnv } from '../../apps/weather-server/src/weather-server.config';

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
