/** The JSON the gateway answers (libs/gateway/src/transcoding/task-response-transcoding.ts), as far as the console reads it. */

export interface Usage {
  tokens_in_context: number;
  tokens_kept_out: number;
  tool_calls: number;
  wall_time_ms: number;
  data_plane_bytes: number;
  rows_in_context: number;
  rows_kept_out: number;
}

export interface ToolCall {
  invocation_id: string;
  tool_name: string;
  server: string;
  status: string;
  usage: Usage;
}

export interface Step {
  step_number: number;
  plan_step_id?: string;
  type: string;
  outcome: string;
  summary?: string;
  tool_calls: ToolCall[];
  usage: Usage;
  error?: { code: number; message: string };
}

export interface TaskSnapshot {
  task_id: string;
  status: string;
  steps: Step[];
  usage: Usage;
  error?: { code: number; message: string };
  created_at?: string;
  completed_at?: string;
}

/** One task of agent.listTasks. */
export interface ListedTask {
  task_id: string;
  status: string;
  objective?: string;
  usage: Usage;
  created_at?: string;
}

/** A task the console knows of: listed by agent.listTasks, submitted here, or looked up by id. */
export interface KnownTask {
  task_id: string;
  objective: string;
  /** As listed, until a snapshot is read. */
  listed?: ListedTask;
  snapshot?: TaskSnapshot;
}

/** The listed tasks (newest first) with what the console already knew of them, then the known tasks the listing did not include. */
export function mergeListed(known: readonly KnownTask[], listed: readonly ListedTask[]): KnownTask[] {
  const byId = new Map(known.map((task) => [task.task_id, task]));
  const merged = listed.map((task) => ({
    ...byId.get(task.task_id),
    task_id: task.task_id,
    objective: task.objective ?? '',
    listed: task,
  }));
  const listedIds = new Set(listed.map((task) => task.task_id));
  return [...merged, ...known.filter((task) => !listedIds.has(task.task_id))];
}

export const ENDED = new Set(['succeeded', 'failed', 'cancelled']);

/** The steps of a snapshot plus streamed ones, by step number (a stream repeats the steps already taken). */
export function mergeSteps(steps: readonly Step[], more: readonly Step[]): Step[] {
  const byNumber = new Map<number, Step>();
  for (const step of [...steps, ...more]) byNumber.set(step.step_number, step);
  return [...byNumber.values()].sort((a, b) => a.step_number - b.step_number);
}
