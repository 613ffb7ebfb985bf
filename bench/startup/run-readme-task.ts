import { performance } from 'node:perf_hooks';
import { README_OBJECTIVE, README_PLAN } from '../../test/support/readme-task';
import { bearerFor } from '../../test/support/tokens';

export interface TaskAnswer {
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

/**
 * Runs the README's task once through the gateway, from submit to its end as agent.getTask
 * reports it (polled every 10 ms). The stack must trust the dev key (S2SP_AUTH_DATA_DIR).
 */
export async function runReadmeTask(gatewayUrl: string): Promise<{ ms: number; task: TaskAnswer }> {
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
