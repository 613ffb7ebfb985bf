import type { v1, v2 } from '@s2sp/contracts';
import { Injectable } from '@nestjs/common';
import { AgentsDownstream, type CallOrigin } from './agents-downstream';
import { AgentsGrpcClients } from './agents-grpc-clients';

/** s2sp.v1.AgentService (and s2sp.v2.AgentService for ListTasks) of the agents, called on behalf of JSON-RPC calls. */
@Injectable()
export class AgentServiceClient {
  constructor(
    private readonly clients: AgentsGrpcClients,
    private readonly downstream: AgentsDownstream,
  ) {}

  submitTask(task: v1.AgentTask, origin: CallOrigin): Promise<v1.SubmitTaskResponse> {
    return this.downstream.call(this.clients.agentService, 'SubmitTask', { task }, origin);
  }

  getTask(taskId: string, origin: CallOrigin): Promise<v1.GetTaskResponse> {
    return this.downstream.call(this.clients.agentService, 'GetTask', { task_id: taskId }, origin);
  }

  /** The task's steps, those already taken and then live ones, until it ends (or the origin's deadline). */
  streamTask(taskId: string, origin: CallOrigin): AsyncGenerator<v1.AgentStepResult> {
    return this.downstream.stream(this.clients.agentService, 'StreamTask', { task_id: taskId }, origin);
  }

  /** s2sp.v2.AgentService/ListTasks: the caller's own tasks, newest first. */
  listTasks(request: v2.ListTasksRequest, origin: CallOrigin): Promise<v2.ListTasksResponse> {
    return this.downstream.call(this.clients.agentServiceV2, 'ListTasks', request, origin);
  }

  cancelTask(request: v1.CancelTaskRequest, origin: CallOrigin): Promise<v1.CancelTaskResponse> {
    return this.downstream.call(this.clients.agentService, 'CancelTask', request, origin);
  }
}
