import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SharedRedis, redisOptionsFromEnv } from '@s2sp/platform';
import { agentsConfigFromEnv } from '../../libs/agents/src/agents.config';
import { gatewayConfigFromEnv } from '../../libs/gateway/src/gateway.config';
import { withEnv } from '../support/with-env';

const UNSET = {
  REDIS_URL: undefined,
  REDIS_KEY_PREFIX: undefined,
  REDIS_CONNECT_TIMEOUT_MS: undefined,
  REDIS_COMMAND_TIMEOUT_MS: undefined,
};

describe('Redis shared by replicas: configuration', () => {
  test('without REDIS_URL nothing is shared: the gateway and the agents stay single-process', () => {
    withEnv(UNSET, () => {
      assert.equal(redisOptionsFromEnv(), undefined);
      assert.equal(gatewayConfigFromEnv().redis, undefined);
      assert.equal(agentsConfigFromEnv().redis, undefined);
    });
  });

  test('REDIS_URL and its companions configure both apps', () => {
    const env = {
      ...UNSET,
      REDIS_URL: 'redis://cache:6380/2',
      REDIS_KEY_PREFIX: 'prod-eu:',
      REDIS_COMMAND_TIMEOUT_MS: '750',
    };
    withEnv(env, () => {
      const expected = {
        url: 'redis://cache:6380/2',
        keyPrefix: 'prod-eu:',
        connectTimeoutMs: 5_000,
        commandTimeoutMs: 750,
      };
      assert.deepEqual(gatewayConfigFromEnv().redis, expected);
      assert.deepEqual(agentsConfigFromEnv().redis, expected);
    });
  });

  test('a URL that is not redis:// or rediss:// is refused naming the variable, without repeating the URL (it may hold a password)', () => {
    withEnv({ ...UNSET, REDIS_URL: 'http://user:s3cret@cache:6379' }, () => {
      assert.throws(
        () => gatewayConfigFromEnv(),
        (error: Error) =>
          /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/.test(error.message) && !error.message.includes('s3cret'),
      );
    });
    withEnv({ ...UNSET, REDIS_URL: 'not a url s3cret' }, () => {
      assert.throws(
        () => agentsConfigFromEnv(),
        (error: Error) => /REDIS_URL/.test(error.message) && !error.message.includes('s3cret'),
      );
    });
    withEnv({ ...UNSET, REDIS_URL: 'redis://cache:6379', REDIS_COMMAND_TIMEOUT_MS: '0' }, () => {
      assert.throws(() => redisOptionsFromEnv(), /REDIS_COMMAND_TIMEOUT_MS must be an integer from 1/);
    });
  });

  test('a Redis that does not answer stops the start with a clear error, not a hang', async () => {
    // A port nothing listens on: the connection is refused at once.
    await assert.rejects(
      SharedRedis.connect({
        url: 'redis://:s3cret@127.0.0.1:1',
        keyPrefix: 't:',
        connectTimeoutMs: 2_000,
        commandTimeoutMs: 1_000,
      }),
      (error: Error) =>
        /^Could not connect to Redis \(REDIS_URL\) within 2000 ms/.test(error.message) &&
        !error.message.includes('s3cret'),
    );
  });
});
