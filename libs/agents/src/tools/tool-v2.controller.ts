import { Controller } from '@nestjs/common';
import type { Metadata } from '@grpc/grpc-js';
import { GrpcMethod } from '@nestjs/microservices';
import { PLATFORM_SCOPES, type v2 } from '@s2sp/contracts';
import { RequireScopes } from '@s2sp/auth';
import { sendSurfacesFingerprint, type GrpcServerCall } from '../grpc/grpc-call';
import { toGrpcError } from '../grpc/grpc-errors';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import { invokeToolResponseV2 } from './invoke-tool-v2-messages';
import { ResourceReader } from './resource-reader.service';
import { listSurfacesResponse } from './surface-messages';
import { serverFilter } from './server-filter';
import { ToolCallService } from './tool-call.service';

/** s2sp.v2.ToolService: the same tool calls as s2sp.v1, answered with a typed result; the servers' other surfaces and their resources. */
@Controller()
export class ToolV2Controller {
  constructor(
    private readonly toolCalls: ToolCallService,
    private readonly connector: McpConnectorService,
    private readonly resources: ResourceReader,
  ) {}

  /** Resources, resource templates and prompts, of one server or all (listed like ListTools: any authenticated caller). */
  @GrpcMethod('s2sp.v2.ToolService', 'ListSurfaces')
  listSurfaces(request: v2.ListSurfacesRequest, _metadata?: Metadata, call?: GrpcServerCall): v2.ListSurfacesResponse {
    try {
      const surfaces = this.connector.surfaces;
      const answer = listSurfacesResponse(surfaces.of(serverFilter(this.connector, request.server)));
      sendSurfacesFingerprint(call, surfaces.fingerprint);
      return answer;
    } catch (error) {
      throw toGrpcError(error);
    }
  }

  @GrpcMethod('s2sp.v2.ToolService', 'InvokeTool')
  @RequireScopes(PLATFORM_SCOPES.TOOLS_CALL)
  invokeTool(request: v2.InvokeToolRequest, metadata: Metadata, call: GrpcServerCall): Promise<v2.InvokeToolResponse> {
    return this.toolCalls.call(request, metadata, call, invokeToolResponseV2);
  }

  /**
   * One resource of one server. Like InvokeTool, the method's own scope
   * (resources:read) at the agents' door; the resource's scope is the server's
   * to check, with the caller's token narrowed for it.
   */
  @GrpcMethod('s2sp.v2.ToolService', 'ReadResource')
  @RequireScopes(PLATFORM_SCOPES.RESOURCES_READ)
  readResource(
    request: v2.ReadResourceRequest,
    metadata: Metadata,
    call: GrpcServerCall,
  ): Promise<v2.ReadResourceResponse> {
    return this.resources.read(request, metadata, call);
  }
}
