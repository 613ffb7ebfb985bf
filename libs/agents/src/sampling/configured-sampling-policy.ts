import { Inject, Injectable } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { CreateMessageRequest } from '@modelcontextprotocol/client';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import type { SamplingRequestContext } from './model-provider';
import { DEFAULT_SAMPLING_CONFIG, type SamplingConfig } from './sampling-config';
import type { SamplingDecision, SamplingPolicy } from './sampling-policy';
import { SAMPLING_RATE_STORAGE, SAMPLING_THROTTLER_NAME } from './sampling-rate-storage';

const WINDOW_MS = 60_000;
/** Tasks whose token use is remembered; the oldest are forgotten first. */
const MAX_TRACKED_TASKS = 10_000;

/**
 * The default policy, from AgentsConfig.sampling: deny servers not listed,
 * bound `maxTokens` per request and per task, the requests per minute of each
 * server (counted in SAMPLING_RATE_STORAGE: across replicas when they share
 * Redis), the size of a request, and the model hints a server may use. A
 * task runs on one replica, so its token budget is counted there.
 * @public
 */
@Injectable()
export class ConfiguredSamplingPolicy implements SamplingPolicy {
  private readonly config: SamplingConfig;
  private readonly tokensByTask = new Map<string, number>();

  constructor(
    @Inject(AGENTS_CONFIG) agentsConfig: AgentsConfig,
    @Inject(SAMPLING_RATE_STORAGE) private readonly rateStorage: ThrottlerStorage,
  ) {
    this.config = agentsConfig.sampling ?? DEFAULT_SAMPLING_CONFIG;
  }

  async decide(
    params: CreateMessageRequest['params'],
    context: Omit<SamplingRequestContext, 'signal'>,
  ): Promise<SamplingDecision> {
    const { config } = this;
    if (!config.allowedServers.includes(context.serverId)) {
      return deny(`MCP server "${context.serverId}" may not request sampling (not in AGENTS_SAMPLING_SERVERS)`);
    }
    const size = JSON.stringify(params).length;
    if (size > config.maxRequestChars)
      return deny(`the request is ${size} characters; at most ${config.maxRequestChars} are accepted`);
    if (params.maxTokens > config.maxTokensPerRequest) {
      return deny(
        `maxTokens ${params.maxTokens} exceeds the limit of ${config.maxTokensPerRequest} tokens per request`,
      );
    }
    const taskTokens = context.taskId === undefined ? 0 : (this.tokensByTask.get(context.taskId) ?? 0);
    if (context.taskId !== undefined && taskTokens + params.maxTokens > config.maxTokensPerTask) {
      return deny(
        `task ${context.taskId} has used ${taskTokens} of its ${config.maxTokensPerTask} sampling tokens; ${params.maxTokens} more were asked for`,
      );
    }
    const narrowed = this.narrowHints(params);
    if (!narrowed)
      return deny(
        `none of the model hints (${hintNames(params).join(', ')}) is allowed; allowed: ${config.allowedModelHints.join(', ')}`,
      );
    // The task's tokens are taken before the rate is counted (an await), so that concurrent requests of one task cannot both fit;
    // they are given back unless the request is allowed.
    const { taskId } = context;
    if (taskId !== undefined) this.chargeTask(taskId, params.maxTokens);
    let withinRate = false;
    try {
      // Last: a request refused for any other reason is not counted against the server's rate.
      withinRate = !(
        await this.rateStorage.increment(
          context.serverId,
          WINDOW_MS,
          config.requestsPerMinute,
          0,
          SAMPLING_THROTTLER_NAME,
        )
      ).isBlocked;
    } finally {
      if (!withinRate && taskId !== undefined) this.chargeTask(taskId, -params.maxTokens);
    }
    if (!withinRate)
      return deny(
        `MCP server "${context.serverId}" reached its limit of ${config.requestsPerMinute} sampling requests per minute`,
      );
    return { allowed: true, params: narrowed };
  }

  /** The request with only allowed hints; undefined when it named hints and none is allowed. */
  private narrowHints(params: CreateMessageRequest['params']): CreateMessageRequest['params'] | undefined {
    const hints = params.modelPreferences?.hints;
    if (!hints || hints.length === 0 || this.config.allowedModelHints.length === 0) return params;
    const allowed = hints.filter(
      (hint) => typeof hint.name === 'string' && this.config.allowedModelHints.includes(hint.name),
    );
    if (allowed.length === 0) return undefined;
    return { ...params, modelPreferences: { ...params.modelPreferences, hints: allowed } };
  }

  /** Adds `tokens` (negative: gives them back) to the task's use. */
  private chargeTask(taskId: string, tokens: number): void {
    const total = (this.tokensByTask.get(taskId) ?? 0) + tokens;
    this.tokensByTask.delete(taskId);
    this.tokensByTask.set(taskId, total);
    if (this.tokensByTask.size > MAX_TRACKED_TASKS)
      this.tokensByTask.delete(this.tokensByTask.keys().next().value as string);
  }
}

function deny(reason: string): SamplingDecision {
  return { allowed: false, reason };
}

function hintNames(params: CreateMessageRequest['params']): string[] {
  return (params.modelPreferences?.hints ?? []).map((hint) => String(hint.name));
}
