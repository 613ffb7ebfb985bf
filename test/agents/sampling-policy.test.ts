import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { CreateMessageRequest } from '@modelcontextprotocol/client';
import { RedisThrottlerStorage, SharedRedis, SlidingWindowThrottlerStorage } from '@s2sp/platform';
import type { AgentsConfig } from '../../libs/agents/src/agents.config';
import { ConfiguredSamplingPolicy } from '../../libs/agents/src/sampling/configured-sampling-policy';
import {
  DEFAULT_SAMPLING_CONFIG,
  validateSamplingConfig,
  type SamplingConfig,
} from '../../libs/agents/src/sampling/sampling-config';
import { validateMcpRoots } from '../../libs/agents/src/sampling/mcp-roots';
import { ManualClock } from '../support/manual-clock';
import { deleteKeysUnder, isolatedRedisOptions, redisOrSkip } from '../support/redis';

function policy(
  overrides: Partial<SamplingConfig>,
  rateStorage: ThrottlerStorage = new SlidingWindowThrottlerStorage(),
): ConfiguredSamplingPolicy {
  return new ConfiguredSamplingPolicy(
    { sampling: { ...DEFAULT_SAMPLING_CONFIG, allowedServers: ['stats'], ...overrides } } as AgentsConfig,
    rateStorage,
  );
}

function request(maxTokens: number, hints?: string[]): CreateMessageRequest['params'] {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: 'summarise' } }],
    maxTokens,
    ...(hints ? { modelPreferences: { hints: hints.map((name) => ({ name })) } } : {}),
  };
}

const reasonOf = async (decision: ReturnType<ConfiguredSamplingPolicy['decide']>) => {
  const decided = await decision;
  return decided.allowed ? 'allowed' : decided.reason;
};

describe('ConfiguredSamplingPolicy', () => {
  test('denies by default: with no configuration no server may sample', async () => {
    const byDefault = new ConfiguredSamplingPolicy({} as AgentsConfig, new SlidingWindowThrottlerStorage());
    assert.match(
      await reasonOf(byDefault.decide(request(10), { serverId: 'stats' })),
      /MCP server "stats" may not request sampling/,
    );
  });

  test('bounds maxTokens per request', async () => {
    const limited = policy({ maxTokensPerRequest: 100 });
    assert.equal(await reasonOf(limited.decide(request(100), { serverId: 'stats' })), 'allowed');
    assert.equal(
      await reasonOf(limited.decide(request(101), { serverId: 'stats' })),
      'maxTokens 101 exceeds the limit of 100 tokens per request',
    );
  });

  test('bounds the requests per minute of each server', async () => {
    const limited = policy({ allowedServers: ['stats', 'weather'], requestsPerMinute: 2 });
    assert.equal(await reasonOf(limited.decide(request(1), { serverId: 'stats' })), 'allowed');
    assert.equal(await reasonOf(limited.decide(request(1), { serverId: 'stats' })), 'allowed');
    assert.equal(
      await reasonOf(limited.decide(request(1), { serverId: 'stats' })),
      'MCP server "stats" reached its limit of 2 sampling requests per minute',
    );
    assert.equal(
      await reasonOf(limited.decide(request(1), { serverId: 'weather' })),
      'allowed',
      'each server has its own allowance',
    );
  });

  test('charges each task the tokens it asked for, and refuses past its budget; refused requests cost nothing', async () => {
    const limited = policy({ maxTokensPerTask: 100 });
    assert.equal(await reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't1' })), 'allowed');
    assert.equal(
      await reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't1' })),
      'task t1 has used 60 of its 100 sampling tokens; 60 more were asked for',
    );
    assert.equal(await reasonOf(limited.decide(request(40), { serverId: 'stats', taskId: 't1' })), 'allowed');
    assert.equal(
      await reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't2' })),
      'allowed',
      'another task has its own budget',
    );
  });

  test('a request refused for the rate gives its tokens back to the task', async () => {
    const clock = new ManualClock();
    const limited = policy(
      { requestsPerMinute: 1, maxTokensPerTask: 100 },
      new SlidingWindowThrottlerStorage(60_000, clock.now),
    );
    assert.equal(await reasonOf(limited.decide(request(50), { serverId: 'stats', taskId: 't1' })), 'allowed');
    assert.match(
      await reasonOf(limited.decide(request(50), { serverId: 'stats', taskId: 't1' })),
      /reached its limit of 1 sampling requests per minute/,
    );
    clock.advance(60_001);
    assert.equal(
      await reasonOf(limited.decide(request(50), { serverId: 'stats', taskId: 't1' })),
      'allowed',
      't1 has used 50 of 100, not 100',
    );
  });

  test('concurrent requests of one task cannot both fit in what is left of its budget', async () => {
    const limited = policy({ maxTokensPerTask: 100 });
    const decisions = await Promise.all([
      limited.decide(request(60), { serverId: 'stats', taskId: 't1' }),
      limited.decide(request(60), { serverId: 'stats', taskId: 't1' }),
    ]);
    assert.deepEqual(decisions.map((decision) => decision.allowed).sort(), [false, true]);
  });

  test('replicas sharing Redis share each server’s requests per minute', async (t) => {
    if (!(await redisOrSkip(t))) return;
    const options = isolatedRedisOptions();
    const [first, second] = [await SharedRedis.connect(options), await SharedRedis.connect(options)];
    try {
      const replicas = [
        policy({ requestsPerMinute: 3 }, new RedisThrottlerStorage(first)),
        policy({ requestsPerMinute: 3 }, new RedisThrottlerStorage(second)),
      ];
      const reasons: string[] = [];
      for (let call = 0; call < 4; call++)
        reasons.push(await reasonOf(replicas[call % 2].decide(request(1), { serverId: 'stats' })));
      assert.deepEqual(reasons, [
        'allowed',
        'allowed',
        'allowed',
        'MCP server "stats" reached its limit of 3 sampling requests per minute',
      ]);
    } finally {
      await deleteKeysUnder(first, options.keyPrefix);
      await Promise.all([first.close(), second.close()]);
    }
  });

  test('keeps only the allowed model hints, and refuses a request that hints only at others', async () => {
    const hinted = policy({ allowedModelHints: ['small-model'] });
    const decision = await hinted.decide(request(10, ['big-model', 'small-model']), { serverId: 'stats' });
    assert.ok(decision.allowed);
    assert.deepEqual(decision.params.modelPreferences?.hints, [{ name: 'small-model' }]);
    assert.equal(
      await reasonOf(hinted.decide(request(10, ['big-model']), { serverId: 'stats' })),
      'none of the model hints (big-model) is allowed; allowed: small-model',
    );
  });

  test('refuses requests larger than maxRequestChars', async () => {
    assert.match(
      await reasonOf(policy({ maxRequestChars: 20 }).decide(request(10), { serverId: 'stats' })),
      /^the request is \d+ characters; at most 20 are accepted$/,
    );
  });
});

describe('sampling and roots configuration', () => {
  test('an allowed server must be a configured one; limits must be positive integers', () => {
    assert.throws(
      () => validateSamplingConfig({ ...DEFAULT_SAMPLING_CONFIG, allowedServers: ['nope'] }, ['stats']),
      /sampling.allowedServers names "nope", which is not a configured MCP server/,
    );
    assert.throws(
      () => validateSamplingConfig({ ...DEFAULT_SAMPLING_CONFIG, maxTokensPerTask: 0 }, ['stats']),
      /sampling.maxTokensPerTask must be a positive integer/,
    );
  });

  test('roots are file:// URIs for configured servers (or *)', () => {
    assert.doesNotThrow(() =>
      validateMcpRoots(
        [
          { server: '*', uri: 'file:///srv' },
          { server: 'stats', uri: 'file:///srv/charts' },
        ],
        ['stats'],
      ),
    );
    assert.throws(
      () => validateMcpRoots([{ server: 'stats', uri: 'https://example.com' }], ['stats']),
      /roots\[0\].uri must be a file:\/\/ URI/,
    );
    assert.throws(
      () => validateMcpRoots([{ server: 'other', uri: 'file:///srv' }], ['stats']),
      /roots\[0\].server "other" is not a configured MCP server/,
    );
  });
});
