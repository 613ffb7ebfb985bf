import { useEffect, useState } from 'preact/hooks';
import { ErrorNotice } from './error-notice';
import { ENDED, mergeSteps, type KnownTask, type Step, type TaskSnapshot } from './model';
import { DEADLINE_EXCEEDED, rpc, RpcError, streamRpc } from './rpc';

/** How long one agent.streamTask call may last (the gateway caps it at its GATEWAY_MAX_DEADLINE_MS). */
const STREAM_DEADLINE_MS = 120_000;

/** One task, live: agent.streamTask's events (called again while the task runs, as each stream ends at its deadline); cancel soft or hard. */
export function TaskLive({
  token,
  task,
  onSnapshot,
}: {
  token: string;
  task: KnownTask;
  onSnapshot: (snapshot: TaskSnapshot) => void;
}) {
  const [streamed, setStreamed] = useState<Step[]>([]);
  const [error, setError] = useState<unknown>();
  const [cancelError, setCancelError] = useState<unknown>();
  const snapshot = task.snapshot;
  const status = snapshot?.status ?? 'accepted';
  const steps = mergeSteps(snapshot?.steps ?? [], streamed);

  useEffect(() => {
    setStreamed([]);
    setError(undefined);
    const stop = new AbortController();
    let ended = false;
    const follow = async () => {
      while (!ended && !stop.signal.aborted) {
        try {
          await followOnce();
        } catch (failure) {
          // A stream ends at its call's deadline while the task may still run: follow it with a new call.
          if (!(failure instanceof RpcError && failure.code === DEADLINE_EXCEEDED)) throw failure;
        }
      }
    };
    const followOnce = () =>
      streamRpc(
        token,
        'agent.streamTask',
        { task_id: task.task_id, deadline_ms: Date.now() + STREAM_DEADLINE_MS },
        (event, result) => {
          if (event === 'snapshot') {
            const next = result as TaskSnapshot;
            ended = ENDED.has(next.status);
            onSnapshot(next);
          } else if (event === 'step') {
            setStreamed((previous) => mergeSteps(previous, [result as Step]));
          }
        },
        stop.signal,
      );
    follow().catch((failure: unknown) => {
      if (!stop.signal.aborted) setError(failure);
    });
    return () => stop.abort();
  }, [token, task.task_id]);

  const cancel = async (mode: 'soft' | 'hard') => {
    setCancelError(undefined);
    try {
      await rpc(token, 'agent.cancelTask', { task_id: task.task_id, mode, reason: 'cancelled from the console' });
    } catch (failure) {
      setCancelError(failure);
    }
  };

  const running = !ENDED.has(status);
  return (
    <section class="task-live" aria-labelledby="task-live-title">
      <h2 id="task-live-title">
        Task <code>{task.task_id}</code>
      </h2>
      <p>
        {task.objective} — status{' '}
        <span class={`status status-${status}`} data-testid="task-status" aria-live="polite">
          {status}
        </span>
      </p>
      {running && (
        <div class="actions">
          <button type="button" onClick={() => void cancel('soft')}>
            Cancel (soft: finish the current step)
          </button>
          <button type="button" class="danger" onClick={() => void cancel('hard')}>
            Cancel now (hard)
          </button>
        </div>
      )}
      {cancelError !== undefined && <ErrorNotice error={cancelError} what="Cancelling the task" />}
      {error !== undefined && <ErrorNotice error={error} what="Following the task (agent.streamTask)" />}
      <ol class="steps" aria-label="Steps" data-testid="steps">
        {steps.map((step) => (
          <li key={step.step_number} class={`step outcome-${step.outcome}`}>
            <span class="step-name">{step.plan_step_id ?? step.type}</span> <span class="outcome">{step.outcome}</span>
            {step.summary && <span class="summary"> — {step.summary}</span>}
            {step.error && <span class="summary"> — {step.error.message}</span>}
            {step.tool_calls.length > 0 && (
              <ul class="tool-calls">
                {step.tool_calls.map((call) => (
                  <li key={call.invocation_id}>
                    <code>
                      {call.server}/{call.tool_name}
                    </code>{' '}
                    {call.status}, {call.usage.tokens_in_context} tokens in context, {call.usage.tokens_kept_out} kept
                    out
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {snapshot && ENDED.has(status) && (
        <p data-testid="task-usage">
          Tokens in the model's context: {snapshot.usage.tokens_in_context}; kept out by S2SP:{' '}
          {snapshot.usage.tokens_kept_out}.
        </p>
      )}
      {snapshot?.error && <ErrorNotice error={new Error(snapshot.error.message)} what="The task" />}
    </section>
  );
}
