import { Inject, Injectable } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import type { ReadResourceResult } from '@modelcontextprotocol/client';
import { requireCaller } from '@s2sp/auth/internal';
import type { v2 } from '@s2sp/contracts';
import type { AgentsConfig } from '../agents.config';
import { AGENTS_CONFIG } from '../agents.tokens';
import { assertTimeRemains, downstreamBudget } from '../common/deadline-budget';
import { requiredString } from '../common/request-strings';
import { abortOnCancel, grpcDeadlineOf, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { traceMessage, traceOf } from '../grpc/trace-context';
import { McpCallAuthorizer } from '../mcp/mcp-call-authorizer.service';
import { withMcpAuthorization } from '../mcp/mcp-call-credentials';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import { McpRequestRejectedError } from '../mcp/tool-call-errors';

/** Longer than any URI a server names its resources with; a longer one is refused before it travels. */
export const MAX_RESOURCE_URI_LENGTH = 2048;

/**
 * s2sp.v2.ToolService/ReadResource: MCP's resources/read on one configured
 * server, with the caller's token narrowed for it
 * (McpCallAuthorizer.resourceReadAuthorization) within the gRPC deadline, through
 * the server's circuit breaker. A client that cancels cancels the MCP request.
 * The server's refusal fails the call (grpc-errors.ts maps its code); any other
 * MCP error it answers (no such resource) is the response's `error`.
 */
@Injectable()
export class ResourceReader {
  constructor(
    private readonly connector: McpConnectorService,
    private readonly authorizer: McpCallAuthorizer,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
  ) {}

  async read(
    request: v2.ReadResourceRequest,
    metadata: Metadata,
    call: GrpcServerCall,
  ): Promise<v2.ReadResourceResponse> {
    const trace = traceOf(request.trace, metadata);
    const cancellation = abortOnCancel(call);
    try {
      const server = requiredString(request.server, 'server');
      const uri = requiredString(request.uri, 'uri', MAX_RESOURCE_URI_LENGTH);
      const deadline = grpcDeadlineOf(call);
      assertTimeRemains(deadline, this.config.deadlines);
      const caller = requireCaller(metadata, 'gRPC call');
      const connection = this.connector.connection(server);
      // Connected first: the token is narrowed to the scopes the server's discovered tools declare.
      const connectBudget = downstreamBudget(deadline, this.config.deadlines, this.config.mcp.connectTimeoutMs);
      await connection.ensureConnected({ timeoutMs: connectBudget.timeoutMs, signal: cancellation.signal });
      const budget = downstreamBudget(deadline, this.config.deadlines, this.config.mcp.callTimeoutMs);
      const authorization = await this.authorizer.resourceReadAuthorization(caller, server, budget.deadlineMs);
      const result = await withMcpAuthorization(authorization, () =>
        connection.request((client, options) => client.readResource({ uri }, options), {
          timeoutMs: budget.timeoutMs,
          signal: cancellation.signal,
        }),
      );
      return { contents: result.contents.map(resourceContents), error: undefined, trace: traceMessage(trace) };
    } catch (error) {
      if (error instanceof McpRequestRejectedError && !error.isAuthRefusal) {
        return {
          contents: [],
          error: { code: error.mcpCode, message: error.message, recovery_hint: '', details: undefined },
          trace: traceMessage(trace),
        };
      }
      throw toGrpcError(error, trace?.trace_id);
    } finally {
      cancellation.dispose();
    }
  }
}

/** One entry of MCP's ReadResourceResult.contents: text as text, a base64 blob as bytes. */
function resourceContents(entry: ReadResourceResult['contents'][number]): v2.ResourceContents {
  const base = { uri: entry.uri, mime_type: entry.mimeType ?? '' };
  return 'text' in entry ? { ...base, text: entry.text } : { ...base, blob: Buffer.from(entry.blob, 'base64') };
}
