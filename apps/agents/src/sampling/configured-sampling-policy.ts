import { Inject, Injectable } from '@nestjs/common';
import type { CreateMessageRequest } from '@modelcontextprotocol/sdk/types.js';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import type { SamplingRequestContext } from './model-provider';
import { DEFAULT_SAMPLING_CONFIG, type SamplingConfig } from './sampling-config';
import type { SamplingDecision, SamplingPolicy } from './sampling-policy';

const WINDOW_MS = 60_000;
/** Tasks whose token use is remembered; the oldest are forgotten first. */
const MAX_TRACKED_TASKS = 10_000;

/**
 * The default policy, from AgentsConfig.sampling: deny servers not listed,
 * bound `maxTokens` per request and per task, the requests per minute of each
 * server, the size of a request, and the model hints a server may use.
 */
@Injectable()
export class ConfiguredSamplingPolicy implements SamplingPolicy {
  private readonly config: SamplingConfig;
  private readonly recentRequests = new Map<string, number[]>();
  private readonly tokensByTask = new Map<string, number>();

  constructor(@Inject(AGENTS_CONFIG) agentsConfig: AgentsConfig) {
    this.config = agentsConfig.sampling ?? DEFAULT_SAMPLING_CONFIG;
  }

  decide(params: CreateMessageRequest['params'], context: Omit<SamplingRequestContext, 'signal'>): SamplingDecision {
    const { config } = this;
    if (!config.allowedServers.includes(context.serverId)) {
      return deny(`MCP server "${context.serverId}" may not request sampling (not in AGENTS_SAMPLING_SERVERS)`);
    }
    const size = JSON.stringify(params).length;
    if (size > config.maxRequestChars) return deny(`the request is ${size} characters; at most ${config.maxRequestChars} are accepted`);
    if (params.maxTokens > config.maxTokensPerRequest) {
      return deny(`maxTokens ${params.maxTokens} exceeds the limit of ${config.maxTokensPerRequest} tokens per request`);
    }
    const taskTokens = context.taskId === undefined ? 0 : (this.tokensByTask.get(context.taskId) ?? 0);
    if (context.taskId !== undefined && taskTokens + params.maxTokens > config.maxTokensPerTask) {
      return deny(`task ${context.taskId} has used ${taskTokens} of its ${config.maxTokensPerTask} sampling tokens; ${params.maxTokens} more were asked for`);
    }
    const narrowed = this.narrowHints(params);
    if (!narrowed) return deny(`none of the model hints (${hintNames(params).join(', ')}) is allowed; allowed: ${config.allowedModelHints.join(', ')}`);
    const now = Date.now();
    const recent = (this.recentRequests.get(context.serverId) ?? []).filter((at) => at > now - WINDOW_MS);
    if (recent.length >= config.requestsPerMinute) {
      this.recentRequests.set(context.serverId, recent);
      return deny(`MCP server "${context.serverId}" reached its limit of ${config.requestsPerMinute} sampling requests per minute`);
    }
    recent.push(now);
    this.recentRequests.set(context.serverId, recent);
    if (context.taskId !== undefined) this.chargeTask(context.taskId, taskTokens + params.maxTokens);
    return { allowed: true, params: narrowed };
  }

  /** The request with only allowed hints; undefined when it named hints and none is allowed. */
  private narrowHints(params: CreateMessageRequest['params']): CreateMessageRequest['params'] | undefined {
    const hints = params.modelPreferences?.hints;
    if (!hints || hints.length === 0 || this.config.allowedModelHints.length === 0) return params;
    const allowed = hints.filter((hint) => typeof hint.name === 'string' && this.config.allowedModelHints.includes(hint.name));
    if (allowed.length === 0) return undefined;
    return { ...params, modelPreferences: { ...params.modelPreferences, hints: allowed } };
  }

  private chargeTask(taskId: string, total: number): void {
    this.tokensByTask.delete(taskId);
    this.tokensByTask.set(taskId, total);
    if (this.tokensByTask.size > MAX_TRACKED_TASKS) this.tokensByTask.delete(this.tokensByTask.keys().next().value as string);
  }
}

function deny(reason: string): SamplingDecision {
  return { allowed: false, reason };
}

function hintNames(params: CreateMessageRequest['params']): string[] {
  return (params.modelPreferences?.hints ?? []).map((hint) => String(hint.name));
}
