import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * The task a tool call runs for. A server's sampling request arrives on the
 * stream of that tool call's HTTP response, in the same async context, so the
 * sampling service can charge its tokens to the task.
 */
const currentTask = new AsyncLocalStorage<string>();

export function withSamplingTask<T>(taskId: string, run: () => Promise<T>): Promise<T> {
  return currentTask.run(taskId, run);
}

export function currentSamplingTask(): string | undefined {
  return currentTask.getStore();
}
