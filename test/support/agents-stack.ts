// Helpers to run the agents in-process for tests: configuration with small,
// test-friendly timings, and polling for eventually-true conditions.
import { DEFAULT_AGENTS_CONFIG, type AgentsConfig, type McpServerEndpoint } from '../../libs/agents/src/agents.config';
import type { ApprovalProvider } from '@s2sp/auth';
import { startAgents, type RunningAgents, type StartAgentsOptions } from '../../libs/agents/src/start-agents';

export type { RunningAgents };

const APPROVE_ALL: ApprovalProvider = { decide: async () => ({ approved: true, approver: 'test-approver' }) };

/** Agents on 127.0.0.1, any free port, in-memory database unless overridden. */
export function agentsTestConfig(mcpServers: McpServerEndpoint[], overrides: Partial<AgentsConfig> = {}): AgentsConfig {
  return {
    ...DEFAULT_AGENTS_CONFIG,
    host: '127.0.0.1',
    port: 0,
    mcpServers,
    dataDir: ':memory:',
    // The testkit's tools include destructive ones (always_fails) that tests of other behaviour call;
    // the default deny-all approval is tested on its own (test/auth/platform-auth.test.ts).
    auth: { audience: 'agents', approvalProvider: { useValue: APPROVE_ALL } },
    // Started hundreds of times by the suite: what only a first task's latency needs is not loaded up front.
    warmUp: false,
    ...overrides,
    breaker: { ...DEFAULT_AGENTS_CONFIG.breaker, ...overrides.breaker },
    mcp: { ...DEFAULT_AGENTS_CONFIG.mcp, connectTimeoutMs: 3_000, ...overrides.mcp },
    deadlines: { ...DEFAULT_AGENTS_CONFIG.deadlines, ...overrides.deadlines },
  };
}

export function startTestAgents(config: AgentsConfig, options: StartAgentsOptions = {}): Promise<RunningAgents> {
  return startAgents(config, { logger: ['error'], ...options });
}

export { eventually } from './eventually';
