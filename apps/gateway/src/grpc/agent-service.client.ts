import { Injectable } from '@nestjs/common';
import { AgentsDownstream, type CallOrigin } from './agents-downstream';
import { AgentsGrpcClients } from './agents-grpc-clients';
import type {
  AgentTaskMessage,
  CancelTaskRequestMessage,
  CancelTaskResponseMessage,
  GetTaskResponseMessage,
  SubmitTaskResponseMessage,
} from './s2sp-proto-messages';

/** s2sp.v1.AgentService of the agents, called on behalf of JSON-RPC calls. */
@Injectable()
export class AgentServiceClient {
  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
  ) {}

  submitTask(task: AgentTaskMessage, origin: CallOrigin): Promise<SubmitTaskResponseMessage> {
    return this.downstream.call(this.clients.agentService, 'SubmitTask', { task }, origin);
  }

  getTask(taskId: string, origin: CallOrigin): Promise<GetTaskResponseMessage> {
    return this.downstream.call(this.clients.agentService, 'GetTask', { task_id: taskId }, origin);
  }

  cancelTask(request: CancelTaskRequestMessage, origin: CallOrigin): Promise<CancelTaskResponseMessage> {
    return this.downstream.call(this.clients.agentService, 'CancelTask', request, origin);
  }
}
