import type { CreateMessageRequest } from '@modelcontextprotocol/client';
import type { SamplingRequestContext } from './model-provider';

/**
 * Injection token of the {@link SamplingPolicy} (default: ConfiguredSamplingPolicy, from AgentsConfig.sampling).
 * @public
 */
export const SAMPLING_POLICY = Symbol('S2SP_AGENTS_SAMPLING_POLICY');

/** @public */
export type SamplingDecision =
  /** `params` is what the model provider receives (e.g. with disallowed model hints removed). */
  { allowed: true; params: CreateMessageRequest['params'] } | { allowed: false; reason: string };

/**
 * Decides each `sampling/createMessage` before any model sees it. A decision
 * that allows a request counts it (rate, tokens of its task).
 * @public
 */
export interface SamplingPolicy {
  decide(
    params: CreateMessageRequest['params'],
    context: Omit<SamplingRequestContext, 'signal'>,
  ): SamplingDecision | Promise<SamplingDecision>;
}
