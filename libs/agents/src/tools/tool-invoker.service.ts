import { Inject, Injectable } from '@nestjs/common';
import { S2SP_META } from '@s2sp/core';
import { Telemetry, traceMcpToolCall } from '@s2sp/telemetry';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { childAbortController } from '../common/abort';
import { downstreamBudget } from '../common/deadline-budget';
import { sanitizeText } from '../common/redact';
import type { CallerIdentity } from '@s2sp/auth';
import { McpCallAuthorizer } from '../mcp/mcp-call-authorizer.service';
import { withMcpAuthorization } from '../mcp/mcp-call-credentials';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import type { RegisteredTool } from '../mcp/registered-tool';
import { DEADLINE_HOP, DeadlineExceededError } from '../mcp/tool-call-errors';
import { normalizeToolResult, textOfContent, type McpToolResult } from './mcp-tool-result';

export interface ToolInvocation {
  tool: RegisteredTool;
  /** Whose authority the call runs with: the MCP server sees this caller's token, narrowed to the tool. */
  caller: CallerIdentity;
  traceId?: string;
  arguments: Record<string, unknown>;
  /** Absolute deadline (epoch ms) of the whole call; undefined = the configured default timeout. */
  deadlineMs?: number;
  /** Aborting it cancels the in-flight MCP request (the server gets notifications/cancelled). */
  signal?: AbortSignal;
  /** Extra request `_meta` (e.g. s2sp/count_tokens); the deadline is added by the invoker. */
  meta?: Record<string, unknown>;
  /**
   * Consumer tools: the scopes of the resource tool whose data this call hands over, so the
   * token carries only those for the data-plane fetch. Unset: every known resource tool's.
   */
  dataSourceScopes?: readonly string[];
}

export interface ToolInvocationOutcome {
  tool: RegisteredTool;
  result: McpToolResult;
  startedAt: number;
  finishedAt: number;
}

/**
 * Calls MCP tools with the agents' deadline rules: the
 * remaining budget becomes the MCP request timeout and, as an absolute time,
 * `_meta['s2sp/deadline_ms']`, which S2SP consumer tools use to bound their
 * data-plane fetch. A result the tool tagged DEADLINE_EXCEEDED becomes a
 * DeadlineExceededError with the tool's hop (e.g. "data-plane").
 */
@Injectable()
export class ToolInvoker {
  constructor(
    private readonly connector: McpConnectorService,
    private readonly authorizer: McpCallAuthorizer,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
    private readonly telemetry: Telemetry,
  ) {}

  /** Finds the tool, connecting to servers not reachable so far (bounded by the deadline). */
  resolve(
    toolName: string,
    serverId: string | undefined,
    deadlineMs: number | undefined,
    signal?: AbortSignal,
  ): Promise<RegisteredTool> {
    const budget = downstreamBudget(deadlineMs, this.config.deadlines, this.config.mcp.connectTimeoutMs);
    return this.connector.resolveTool(toolName, serverId, { timeoutMs: budget.timeoutMs, signal });
  }

  /** The audience (service name) of a configured MCP server. */
  audienceOf(serverId: string): string {
    return this.connector.audienceOf(serverId);
  }

  async invoke(invocation: ToolInvocation): Promise<ToolInvocationOutcome> {
    const { tool } = invocation;
    const budget = downstreamBudget(invocation.deadlineMs, this.config.deadlines, this.config.mcp.callTimeoutMs);
    const meta: Record<string, unknown> = { ...invocation.meta };
    if (budget.deadlineMs !== undefined) meta[S2SP_META.DEADLINE_MS] = budget.deadlineMs;
    const authorization = await this.authorizer.authorizationFor(invocation.caller, tool, budget.deadlineMs, {
      traceId: invocation.traceId,
      dataSourceScopes: invocation.dataSourceScopes,
    });
    const abort = childAbortController(invocation.signal);
    const startedAt = Date.now();
    try {
      // An `mcp.tools/call <tool>` client span; its context travels in `_meta` (any transport) and,
      // over HTTP, as `traceparent` headers (the transport's fetch).
      const raw = await traceMcpToolCall(this.telemetry, tool.serverId, tool.name, meta, (tracedMeta) => {
        const params = {
          name: tool.name,
          arguments: invocation.arguments,
          ...(Object.keys(tracedMeta).length > 0 ? { _meta: tracedMeta } : {}),
        };
        return withMcpAuthorization(authorization, () =>
          this.connector.connection(tool.serverId).request((client, options) => client.callTool(params, options), {
            timeoutMs: budget.timeoutMs,
            signal: abort.controller.signal,
          }),
        );
      });
      const result = normalizeToolResult(raw);
      throwIfTaggedDeadline(tool, result);
      return { tool, result, startedAt, finishedAt: Date.now() };
    } finally {
      abort.dispose();
    }
  }
}

function throwIfTaggedDeadline(tool: RegisteredTool, result: McpToolResult): void {
  if (!result.isError || result._meta?.[S2SP_META.ERROR_CODE] !== 'DEADLINE_EXCEEDED') return;
  const hop = result._meta?.[S2SP_META.ERROR_HOP];
  const text = textOfContent(result) || 'the deadline passed';
  throw new DeadlineExceededError(
    typeof hop === 'string' && /^[A-Za-z0-9_.-]{1,32}$/.test(hop) ? hop : DEADLINE_HOP.MCP,
    `${tool.name} on MCP server "${tool.serverId}": ${sanitizeText(text)}`,
  );
}
