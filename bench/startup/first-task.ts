/**
 * The first task after `npm start`: starts the whole stack (dist/scripts/start-all.js, or the
 * one given, e.g. another checkout's build) on free ports in a fresh temp directory, waits until
 * it is ready, then runs the README's task --tasks times, one after the other, through the
 * gateway, and prints each task's time and its steps', and the first task against the median of
 * the others (the warm cost, measured in the same run).
 *
 *   npm run build && node dist/bench/startup/first-task.js [--tasks 6] [--start-all path/to/start-all.js]
 */
import { parseArgs } from 'node:util';
import { median } from '../gateway/percentiles';
import { bearerFor } from '../../test/support/tokens';
import { startBenchStack } from './bench-stack';
import { runReadmeTask, type TaskAnswer } from './run-readme-task';

const { values } = parseArgs({ options: { tasks: { type: 'string', default: '6' }, 'start-all': { type: 'string' } } });
const tasks = Number(values.tasks);
if (!Number.isInteger(tasks) || tasks < 2) throw new Error('--tasks must be a whole number of at least 2');

function stepTimes(task: TaskAnswer): string {
  return task.steps
    .filter((step) => step.plan_step_id)
    .map((step) => `${step.plan_step_id} ${Date.parse(step.finished_at ?? '') - Date.parse(step.started_at ?? '')} ms`)
    .join(', ');
}

async function main(): Promise<void> {
  const stack = await startBenchStack('s2sp-first-task-', values['start-all']);
  try {
    // The bench's own first token (reading the dev key, loading jose: about 20 ms) is signed before
    // the clock starts: what is measured is the stack's first task, not this client's first signature.
    await bearerFor({ audience: 'gateway' });
    const times: number[] = [];
    for (let index = 0; index < tasks; index += 1) {
      const { ms, task } = await runReadmeTask(stack.gatewayUrl);
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
  }
}

main().catch((error: unknown) => {
  console.error('first-task failed:', error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
