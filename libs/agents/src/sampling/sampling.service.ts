import { Inject, Injectable, Logger } from '@nestjs/common';
import { specTypeSchemas, type CreateMessageRequest, type CreateMessageResult } from '@modelcontextprotocol/client';
import { AUDIT_SINK, type AuditEvent, type AuditSink } from '@s2sp/auth';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { describeError } from '../common/redact';
import { MODEL_PROVIDER, type ModelProvider } from './model-provider';
import { rootsOf } from './mcp-roots';
import { SAMPLING_POLICY, type SamplingPolicy } from './sampling-policy';
import { samplingRefusal } from './sampling-refusal';
import { currentSamplingTask } from './sampling-task-scope';

/** The operation sampling decisions are audited under. */
export const SAMPLING_OPERATION = 'sampling/createMessage';
/** The approver named in the audit of a sampling decision. */
export const SAMPLING_POLICY_APPROVER = 'sampling-policy';

/**
 * What the agents answer to the MCP servers they connect to:
 * `sampling/createMessage` (policy first, then the MODEL_PROVIDER; every
 * decision audited) and `roots/list` (the configured roots).
 */
@Injectable()
export class SamplingService {
  private readonly logger = new Logger('Sampling');

  constructor(
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
    @Inject(SAMPLING_POLICY) private readonly policy: SamplingPolicy,
    @Inject(MODEL_PROVIDER) private readonly model: ModelProvider,
    @Inject(AUDIT_SINK) private readonly audit: AuditSink,
  ) {}

  roots(serverId: string): { roots: Array<{ uri: string; name?: string }> } {
    return { roots: rootsOf(this.config.roots ?? [], serverId) };
  }

  async createMessage(
    serverId: string,
    params: CreateMessageRequest['params'],
    signal: AbortSignal,
  ): Promise<CreateMessageResult> {
    const taskId = currentSamplingTask();
    const decision = await this.policy.decide(params, { serverId, taskId });
    const detail = `${taskId === undefined ? 'no task' : `task ${taskId}`}; maxTokens ${params.maxTokens}`;
    if (!decision.allowed) {
      await this.record(serverId, false, `${decision.reason} (${detail})`);
      throw samplingRefusal(`sampling refused: ${decision.reason}`);
    }
    // An allow that cannot be audited does not happen (as for tool calls, see AuditSink).
    await this.record(serverId, true, `allowed (${detail})`);
    const result = await this.model.createMessage(decision.params, { serverId, taskId, signal });
    const checked = specTypeSchemas.CreateMessageResult['~standard'].validate(result);
    if (checked.issues !== undefined) {
      this.logger.error(`The model provider answered MCP server "${serverId}" with an invalid CreateMessageResult`);
      throw samplingRefusal('sampling failed: the model provider gave an invalid answer');
    }
    return checked.value;
  }

  private async record(serverId: string, allowed: boolean, reason: string): Promise<void> {
    const event: AuditEvent = {
      time: new Date().toISOString(),
      decision: allowed ? 'allow' : 'deny',
      outcome: allowed ? 'authorized' : 'approval-denied',
      subject: `mcp-server:${serverId}`,
      delegatedBy: [],
      protocol: 'mcp',
      service: this.config.auth.audience,
      operation: SAMPLING_OPERATION,
      requiredScopes: [],
      missingScopes: [],
      mutationClass: 'READ_ONLY',
      approval: { required: true, approved: allowed, approver: SAMPLING_POLICY_APPROVER, via: 'decided', reason },
    };
    if (allowed) {
      await this.audit.record(event);
      return;
    }
    try {
      await this.audit.record(event);
    } catch (error) {
      this.logger.warn(`Auditing a refused sampling request of "${serverId}" failed: ${describeError(error)}`);
    }
  }
}
