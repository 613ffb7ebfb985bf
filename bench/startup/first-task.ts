/**
 * The first task after `npm start`: starts the whole stack (dist/scripts/start-all.js, or the
 * one given, e.g. another checkout's build) on free ports in a fresh temp directory, waits until
 * it is ready, then runs the README's task --tasks times, one after the other, through the
 * gateway, and prints each task's time and its steps', and the first task against the median of
 * the others (the warm cost, measured in the same run).
 *
 *   npm run build && node dist/bench/startup/first-task.js [--tasks 6] [--start-all path/to/start-all.js]
 */
import { chmodSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DevKeyStore } from '@s2sp/auth';
import { median } from '../gateway/percentiles';
import { README_OBJECTIVE, README_PLAN } from '../../test/support/readme-task';
import { startStack } from '../../test/support/start-all';
import { tempDir } from '../../test/support/stack';
import { bearerFor } from '../../test/support/tokens';

const { values } = parseArgs({ options: { tasks: { type: 'string', default: '6' }, 'start-all': { type: 'string' } } });
const tasks = Number(values.tasks);
if (!Number.isInteger(tasks) || tasks < 2) throw new Error('--tasks must be a whole number of at least 2');

interface TaskAnswer {
  status: string;
  steps: Array<{ plan_step_id?: string; started_at?: string; finished_at?: string }>;
}

async function rpc(gatewayUrl: string, method: string, params: object): Promise<any> {
  const response = await fetch(`${gatewayUrl}/rpc`, {
    method: 'POST',
    headers: { authorization: await bearerFor({ audience: 'gateway' }), 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const answer = (await response.json()) as { result?: unknown; error?: unknown };
  if (answer.result === undefined) throw new Error(`${method}: ${JSON.stringify(answer.error)}`);
  return answer.result;
}

/** One README task, from submit to its end as agent.getTask reports it (polled every 10 ms). */
async function timeTask(gatewayUrl: string): Promise<{ ms: number; task: TaskAnswer }> {
  const started = performance.now();
  const { task_id } = (await rpc(gatewayUrl, 'agent.submitTask', {
    objective: README_OBJECTIVE,
    plan: README_PLAN,
  })) as { task_id: string };
  for (;;) {
    const task = (await rpc(gatewayUrl, 'agent.getTask', { task_id })) as TaskAnswer;
    if (task.status !== 'accepted' && task.status !== 'running') return { ms: performance.now() - started, task };
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function stepTimes(task: TaskAnswer): string {
  return task.steps
    .filter((step) => step.plan_step_id)
    .map((step) => `${step.plan_step_id} ${Date.parse(step.finished_at ?? '') - Date.parse(step.started_at ?? '')} ms`)
    .join(', ');
}

async function main(): Promise<void> {
  const cwd = tempDir('s2sp-first-task-');
  chmodSync(cwd.path, 0o755); // the embedded server runs as another user when this runs as root
  const stack = await startStack({
    cwd: cwd.path,
    // The apps trust the dev key this bench mints its tokens with.
    env: { S2SP_AUTH_DATA_DIR: new DevKeyStore().dataDir },
    timeoutMs: 300_000,
    script: values['start-all'],
  }).catch((error: unknown) => {
    cwd.remove();
    throw error;
  });
  try {
    const times: number[] = [];
    for (let index = 0; index < tasks; index += 1) {
      const { ms, task } = await timeTask(stack.gatewayUrl);
      if (task.status !== 'succeeded') throw new Error(`task ${index + 1} ended ${task.status}`);
      times.push(ms);
      console.log(`task ${index + 1}: ${ms.toFixed(0)} ms (${stepTimes(task)})`);
    }
    const warm = median(times.slice(1));
    console.log(
      `first task ${times[0].toFixed(0)} ms, warm median ${warm.toFixed(0)} ms: ${(times[0] / warm).toFixed(2)}×`,
    );
  } finally {
    await stack.stop();
    cwd.remove();
  }
}

main().catch((error: unknown) => {
  console.error('first-task failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
