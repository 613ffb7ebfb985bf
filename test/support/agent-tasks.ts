// Building AgentTask messages and following tasks through the AgentService,
// for the agents tests.
import { toStruct, type JsonObject } from '@s2sp/contracts';
import { eventually } from './agents-stack';
import { unary, type Message, type ServiceClient } from './agents-grpc-client';

export const FINAL_TASK_STATUSES = ['TASK_STATUS_SUCCEEDED', 'TASK_STATUS_FAILED', 'TASK_STATUS_CANCELLED'];

/** The predicate of the example plan: alerts about wind, fire or flags (4 of California's 14). */
export const WIND_OR_FIRE: JsonObject = {
  or: [
    { field: 'event', op: 'contains', value: 'Wind' },
    { field: 'event', op: 'contains', value: 'Fire' },
    { field: 'event', op: 'contains', value: 'Flag' },
  ],
};

export function resourceStep(
  stepId: string,
  options: { mode?: 'DATA_PLANE_MODE_ASYNC' | 'DATA_PLANE_MODE_SYNC'; area?: string; domains?: string[] } = {},
): Message {
  return {
    step_id: stepId,
    resource_call: {
      tool: 'get_alerts',
      server: 'weather',
      arguments: toStruct({ area: options.area ?? 'CA' }),
      abstract_domains: options.domains ?? ['event', 'severity'],
      mode: options.mode ?? 'DATA_PLANE_MODE_ASYNC',
    },
  };
}

export function filterStep(stepId: string, inputStepId: string, predicate: JsonObject = WIND_OR_FIRE): Message {
  return { step_id: stepId, filter: { input_step_id: inputStepId, predicate: toStruct(predicate) } };
}

export function consumerStep(
  stepId: string,
  inputStepId: string,
  options: { tool?: string; server?: string; args?: JsonObject; mapping?: Record<string, string> } = {},
): Message {
  return {
    step_id: stepId,
    consumer_call: {
      tool: options.tool ?? 'draw_chart',
      server: options.server ?? 'stats',
      arguments: toStruct(options.args ?? {}),
      column_mapping: options.mapping ?? {},
      input_step_id: inputStepId,
    },
  };
}

/** weather get_alerts (abstract event,severity) → FILTER wind/fire → stats draw_chart. */
export function alertChartPlan(
  mode: 'DATA_PLANE_MODE_ASYNC' | 'DATA_PLANE_MODE_SYNC' = 'DATA_PLANE_MODE_ASYNC',
  chartArgs: JsonObject = { group_by: 'urgency' },
  mapping: Record<string, string> = {},
): Message[] {
  return [
    resourceStep('alerts', { mode }),
    filterStep('windy', 'alerts'),
    consumerStep('chart', 'windy', { args: chartArgs, mapping }),
  ];
}

export async function submitTask(agents: ServiceClient, task: Message): Promise<Message> {
  return unary(agents, 'SubmitTask', { task });
}

export async function getTask(agents: ServiceClient, taskId: string): Promise<Message> {
  return (await unary(agents, 'GetTask', { task_id: taskId })).task;
}

/** Polls GetTask until the task has ended; returns its snapshot. */
export function waitForTaskEnd(agents: ServiceClient, taskId: string, timeoutMs = 30_000): Promise<Message> {
  return eventually(
    `task ${taskId} to end`,
    async () => {
      const task = await getTask(agents, taskId);
      return FINAL_TASK_STATUSES.includes(task.status) ? task : undefined;
    },
    timeoutMs,
  );
}

/** Polls GetTask until the task has at least `count` steps. */
export function waitForSteps(
  agents: ServiceClient,
  taskId: string,
  count: number,
  timeoutMs = 30_000,
): Promise<Message> {
  return eventually(
    `task ${taskId} to reach ${count} steps`,
    async () => {
      const task = await getTask(agents, taskId);
      return task.steps.length >= count ? task : undefined;
    },
    timeoutMs,
  );
}
