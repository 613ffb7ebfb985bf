import type { v1, v2 } from '@s2sp/contracts';
import { Injectable } from '@nestjs/common';
import { AgentsDownstream, type CallOrigin } from './agents-downstream';
import { AgentsGrpcClients } from './agents-grpc-clients';

/** s2sp.v1.ToolService (and s2sp.v2.ToolService for InvokeTool) of the agents, called on behalf of JSON-RPC calls. */
@Injectable()
export class ToolServiceClient {
  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
  ) {}

  listTools(request: v1.ListToolsRequest, origin: CallOrigin): Promise<v1.ListToolsResponse> {
    return this.downstream.call(this.clients.toolService, 'ListTools', request, origin);
  }

  invokeTool(request: v1.ToolInvocationRequest, origin: CallOrigin): Promise<v1.ToolInvocationResponse> {
    return this.downstream.call(this.clients.toolService, 'InvokeTool', request, origin);
  }

  /** s2sp.v2.ToolService/InvokeTool: the same call, answered with a typed result. */
  invokeToolV2(request: v2.InvokeToolRequest, origin: CallOrigin): Promise<v2.InvokeToolResponse> {
    return this.downstream.call(this.clients.toolServiceV2, 'InvokeTool', request, origin);
  }

  /** s2sp.v2.ToolService/ListSurfaces: the servers' resources, resource templates and prompts; undefined from agents older than contract 2.1.0. */
  listSurfaces(request: v2.ListSurfacesRequest, origin: CallOrigin): Promise<v2.ListSurfacesResponse | undefined> {
    return this.downstream.callIfImplemented(this.clients.toolServiceV2, 'ListSurfaces', request, origin);
  }

  listServers(origin: CallOrigin): Promise<v1.ListServersResponse> {
    return this.downstream.call(this.clients.toolService, 'ListServers', {}, origin);
  }
}
