/**
 * Deadlines are absolute epoch milliseconds at every hop. What a hop may use of
 * the time left before one: the remaining time less what it keeps back to send
 * its answer, which must reach a minimum for the work to be worth starting.
 * @public
 */
export interface DeadlineReserve {
  /** Time kept back to send an answer before the caller's deadline. */
  reserveMs: number;
  /** Below this budget the work is refused. */
  minimumMs: number;
}

/** @public */
export interface DeadlineBudget {
  /** Time left until the deadline (negative once it passed). */
  remainingMs: number;
  /** What the work may use: the remaining time less the reserve. */
  budgetMs: number;
  /** Whether the budget reaches the minimum. */
  sufficient: boolean;
  /** The least remaining time that would have been sufficient. */
  neededMs: number;
}

/**
 * The budget left before `deadline` (epoch ms); each hop refuses with its own error when it is not sufficient.
 * @public
 */
export function budgetUntil(deadline: number, reserve: DeadlineReserve, now = Date.now()): DeadlineBudget {
  const remainingMs = deadline - now;
  const budgetMs = remainingMs - reserve.reserveMs;
  return {
    remainingMs,
    budgetMs,
    sufficient: budgetMs >= reserve.minimumMs,
    neededMs: reserve.minimumMs + reserve.reserveMs,
  };
}

/**
 * The earliest of the given absolute deadlines (epoch ms); undefined when none is set.
 * @internal
 */
export function earliestDeadline(...deadlines: Array<number | undefined>): number | undefined {
  const set = deadlines.filter((deadline): deadline is number => deadline !== undefined && Number.isFinite(deadline));
  return set.length === 0 ? undefined : Math.min(...set);
}
