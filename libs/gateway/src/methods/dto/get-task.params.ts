import { IsUUID } from 'class-validator';

/** Params of agent.getTask. */
export class GetTaskParams {
  @IsUUID()
  task_id!: string;
}
