import { IsIn, IsInt, IsNotEmpty, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

/** The task statuses agent.listTasks filters by. */
export const LISTED_TASK_STATUSES = ['accepted', 'running', 'cancelling', 'succeeded', 'failed', 'cancelled'] as const;

/** Params of agent.listTasks. */
export class ListTasksParams {
  /** Opaque cursor from a previous page's next_cursor. */
  @IsOptional()
  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  cursor?: string;

  /** Tasks per page; the agents' default when omitted, their maximum when larger. */
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1000)
  page_size?: number;

  /** Only tasks with this status. */
  @IsOptional()
  @IsIn(LISTED_TASK_STATUSES)
  status?: (typeof LISTED_TASK_STATUSES)[number];
}
