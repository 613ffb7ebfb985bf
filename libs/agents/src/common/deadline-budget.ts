import { budgetUntil } from '@s2sp/platform';
import { DEADLINE_HOP, DeadlineExceededError } from './deadline-exceeded-error';

export { earliestDeadline } from '@s2sp/platform/internal';

export interface DeadlinePolicy {
  /** Below this remaining time a hop refuses the work. */
  minRemainingMs: number;
  /** Time kept back to send an answer back before the caller's deadline. */
  responseReserveMs: number;
}

/** The time one downstream request may take. */
export interface DownstreamBudget {
  /** Timeout for the request (RequestOptions.timeout). */
  timeoutMs: number;
  /**
   * Absolute deadline (epoch ms) to tell the downstream server in
   * `_meta['s2sp/deadline_ms']`; somewhat earlier than our own timeout (the
   * reserve or a tenth of the budget, at most 1 s) so its own
   * DEADLINE_EXCEEDED answer (e.g. hop "data-plane") reaches us before we
   * stop waiting (hop "mcp").
   * Undefined when the caller set no deadline.
   */
  deadlineMs: number | undefined;
}

const MAX_DOWNSTREAM_RESERVE_MS = 1_000;

/**
 * Throws DeadlineExceededError (hop "agents") when too little time remains to
 * do anything useful before `deadline`: less than `minRemainingMs` once
 * `responseReserveMs` is kept back for the answer. Checked when a request
 * reaches the agents and again before downstream work (downstreamBudget).
 */
export function assertTimeRemains(deadline: number | undefined, policy: DeadlinePolicy, now = Date.now()): void {
  if (deadline === undefined) return;
  const { remainingMs, sufficient, neededMs } = budgetUntil(
    deadline,
    { reserveMs: policy.responseReserveMs, minimumMs: policy.minRemainingMs },
    now,
  );
  if (!sufficient) {
    throw new DeadlineExceededError(
      DEADLINE_HOP.AGENTS,
      remainingMs <= 0
        ? `the deadline passed ${-remainingMs} ms before the agents could start`
        : `only ${remainingMs} ms remained when the request reached the agents (at least ${neededMs} ms needed)`,
    );
  }
}

/** What a downstream call may use of the remaining time; refuses (hop "agents") when too little is left. */
export function downstreamBudget(
  deadline: number | undefined,
  policy: DeadlinePolicy,
  defaultTimeoutMs: number,
  now = Date.now(),
): DownstreamBudget {
  if (deadline === undefined) return { timeoutMs: defaultTimeoutMs, deadlineMs: undefined };
  assertTimeRemains(deadline, policy, now);
  const timeoutMs = Math.min(defaultTimeoutMs, deadline - now - policy.responseReserveMs);
  // The downstream server needs time to send its own DEADLINE_EXCEEDED answer back:
  // the reserve, or a tenth of the budget when larger, but at most 1 s and a quarter of it.
  const reserve = Math.min(
    Math.max(policy.responseReserveMs, Math.floor(timeoutMs / 10)),
    MAX_DOWNSTREAM_RESERVE_MS,
    Math.floor(timeoutMs / 4),
  );
  return { timeoutMs, deadlineMs: now + timeoutMs - reserve };
}
