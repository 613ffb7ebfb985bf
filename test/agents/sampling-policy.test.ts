import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AgentsConfig } from '../../apps/agents/src/agents.config';
import { ConfiguredSamplingPolicy } from '../../apps/agents/src/sampling/configured-sampling-policy';
import { DEFAULT_SAMPLING_CONFIG, validateSamplingConfig, type SamplingConfig } from '../../apps/agents/src/sampling/sampling-config';
import { validateMcpRoots } from '../../apps/agents/src/sampling/mcp-roots';

function policy(overrides: Partial<SamplingConfig>): ConfiguredSamplingPolicy {
  return new ConfiguredSamplingPolicy({ sampling: { ...DEFAULT_SAMPLING_CONFIG, allowedServers: ['stats'], ...overrides } } as AgentsConfig);
}

function request(maxTokens: number, hints?: string[]): CreateMessageRequest['params'] {
  return {
    messages: [{ role: 'user', content: { type: 'text', text: 'summarise' } }],
    maxTokens,
    ...(hints ? { modelPreferences: { hints: hints.map((name) => ({ name })) } } : {}),
  };
}

const reasonOf = (decision: ReturnType<ConfiguredSamplingPolicy['decide']>) => (decision.allowed ? 'allowed' : decision.reason);

describe('ConfiguredSamplingPolicy', () => {
  test('denies by default: with no configuration no server may sample', () => {
    const byDefault = new ConfiguredSamplingPolicy({} as AgentsConfig);
    assert.match(reasonOf(byDefault.decide(request(10), { serverId: 'stats' })), /MCP server "stats" may not request sampling/);
  });

  test('bounds maxTokens per request', () => {
    const limited = policy({ maxTokensPerRequest: 100 });
    assert.equal(reasonOf(limited.decide(request(100), { serverId: 'stats' })), 'allowed');
    assert.equal(reasonOf(limited.decide(request(101), { serverId: 'stats' })), 'maxTokens 101 exceeds the limit of 100 tokens per request');
  });

  test('bounds the requests per minute of each server', () => {
    const limited = policy({ allowedServers: ['stats', 'weather'], requestsPerMinute: 2 });
    assert.equal(reasonOf(limited.decide(request(1), { serverId: 'stats' })), 'allowed');
    assert.equal(reasonOf(limited.decide(request(1), { serverId: 'stats' })), 'allowed');
    assert.equal(reasonOf(limited.decide(request(1), { serverId: 'stats' })), 'MCP server "stats" reached its limit of 2 sampling requests per minute');
    assert.equal(reasonOf(limited.decide(request(1), { serverId: 'weather' })), 'allowed', 'each server has its own allowance');
  });

  test('charges each task the tokens it asked for, and refuses past its budget; refused requests cost nothing', () => {
    const limited = policy({ maxTokensPerTask: 100 });
    assert.equal(reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't1' })), 'allowed');
    assert.equal(reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't1' })), 'task t1 has used 60 of its 100 sampling tokens; 60 more were asked for');
    assert.equal(reasonOf(limited.decide(request(40), { serverId: 'stats', taskId: 't1' })), 'allowed');
    assert.equal(reasonOf(limited.decide(request(60), { serverId: 'stats', taskId: 't2' })), 'allowed', 'another task has its own budget');
  });

  test('keeps only the allowed model hints, and refuses a request that hints only at others', () => {
    const hinted = policy({ allowedModelHints: ['small-model'] });
    const decision = hinted.decide(request(10, ['big-model', 'small-model']), { serverId: 'stats' });
    assert.ok(decision.allowed);
    assert.deepEqual(decision.params.modelPreferences?.hints, [{ name: 'small-model' }]);
    assert.equal(reasonOf(hinted.decide(request(10, ['big-model']), { serverId: 'stats' })), 'none of the model hints (big-model) is allowed; allowed: small-model');
  });

  test('refuses requests larger than maxRequestChars', () => {
    assert.match(reasonOf(policy({ maxRequestChars: 20 }).decide(request(10), { serverId: 'stats' })), /^the request is \d+ characters; at most 20 are accepted$/);
  });
});

describe('sampling and roots configuration', () => {
  test('an allowed server must be a configured one; limits must be positive integers', () => {
    assert.throws(() => validateSamplingConfig({ ...DEFAULT_SAMPLING_CONFIG, allowedServers: ['nope'] }, ['stats']), /sampling.allowedServers names "nope", which is not a configured MCP server/);
    assert.throws(() => validateSamplingConfig({ ...DEFAULT_SAMPLING_CONFIG, maxTokensPerTask: 0 }, ['stats']), /sampling.maxTokensPerTask must be a positive integer/);
  });

  test('roots are file:// URIs for configured servers (or *)', () => {
    assert.doesNotThrow(() => validateMcpRoots([{ server: '*', uri: 'file:///srv' }, { server: 'stats', uri: 'file:///srv/charts' }], ['stats']));
    assert.throws(() => validateMcpRoots([{ server: 'stats', uri: 'https://example.com' }], ['stats']), /roots\[0\].uri must be a file:\/\/ URI/);
    assert.throws(() => validateMcpRoots([{ server: 'other', uri: 'file:///srv' }], ['stats']), /roots\[0\].server "other" is not a configured MCP server/);
  });
});
