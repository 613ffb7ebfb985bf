import { Injectable } from '@nestjs/common';
import { AgentsDownstream, type CallOrigin } from './agents-downstream';
import { AgentsGrpcClients } from './agents-grpc-clients';
import type {
  ListServersResponseMessage,
  ListToolsRequestMessage,
  ListToolsResponseMessage,
  ToolInvocationRequestMessage,
  ToolInvocationResponseMessage,
} from './s2sp-proto-messages';

/** s2sp.v1.ToolService of the agents, called on behalf of JSON-RPC calls. */
@Injectable()
export class ToolServiceClient {
  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
  ) {}

  listTools(request: ListToolsRequestMessage, origin: CallOrigin): Promise<ListToolsResponseMessage> {
    return this.downstream.call(this.clients.toolService, 'ListTools', request, origin);
  }

  invokeTool(request: ToolInvocationRequestMessage, origin: CallOrigin): Promise<ToolInvocationResponseMessage> {
    return this.downstream.call(this.clients.toolService, 'InvokeTool', request, origin);
  }

  listServers(origin: CallOrigin): Promise<ListServersResponseMessage> {
    return this.downstream.call(this.clients.toolService, 'ListServers', {}, origin);
  }
}
