import { Controller } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { PLATFORM_SCOPES, type v1 } from '@s2sp/contracts';
import { AllowAnonymous, RequireScopes } from '@s2sp/auth';
import { sendSurfacesFingerprint, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import { boundedString } from '../common/request-strings';
import { ToolCallService } from './tool-call.service';
import { serverFilter } from './server-filter';
import { ToolListCursorCodec } from './tool-list-cursor';
import { invocationResponseMessage, serverStatusMessage, toolDescriptorMessage } from './tool-messages';

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 200;

/** s2sp.v1.ToolService: the tools of every MCP server, and calls to them. */
@Controller()
export class ToolController {
  private readonly cursors = new ToolListCursorCodec();

  constructor(
    private readonly connector: McpConnectorService,
    private readonly toolCalls: ToolCallService,
  ) {}

  /**
   * Pages through the registry: page_size 0 → 50, capped at 200; cursors are tied to the registry version.
   * The response headers carry the surfaces' fingerprint: the gateway re-fetches ListSurfaces only when it changed.
   */
  @GrpcMethod('s2sp.v1.ToolService', 'ListTools')
  listTools(request: v1.ListToolsRequest, _metadata?: Metadata, call?: GrpcServerCall): v1.ListToolsResponse {
    try {
      sendSurfacesFingerprint(call, this.connector.surfaces.fingerprint);
      const server = serverFilter(this.connector, request.server);
      const pageSize = request.page_size ? Math.min(request.page_size, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
      const registry = this.connector.registry;
      const version = registry.version;
      const tools = server === '' ? registry.all() : registry.forServer(server);
      const cursor = boundedString(request.cursor, 'cursor', 512);
      const offset = cursor === '' ? 0 : this.cursors.decode(cursor, { registryVersion: version, server }).offset;
      const page = tools.slice(offset, offset + pageSize);
      const end = offset + page.length;
      return {
        tools: page.map(toolDescriptorMessage),
        next_cursor: end < tools.length ? this.cursors.encode({ offset: end, registryVersion: version, server }) : '',
      };
    } catch (error) {
      throw toGrpcError(error);
    }
  }

  /** Calls one tool (see ToolCallService); the answer carries MCP's result as a Struct. */
  @GrpcMethod('s2sp.v1.ToolService', 'InvokeTool')
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  invokeTool(
    request: v1.ToolInvocationRequest,
    metadata: Metadata,
    call: GrpcServerCall,
  ): Promise<v1.ToolInvocationResponse> {
    return this.toolCalls.call(request, metadata, call, invocationResponseMessage);
  }

  // Operational status (server ids, redacted URLs, circuits) for health checks, which have no caller.
  @GrpcMethod('s2sp.v1.ToolService', 'ListServers')
  @AllowAnonymous()
  listServers(): v1.ListServersResponse {
    return { servers: this.connector.servers().map(serverStatusMessage) };
  }
}
