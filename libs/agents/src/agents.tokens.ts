/** Injection tokens of the agents app. */

/** The validated AgentsConfig. */
export const AGENTS_CONFIG = Symbol('AGENTS_CONFIG');

/**
 * The S2spDatabase (Prisma client) holding tasks and steps.
 * @public
 */
export const AGENTS_DATABASE = Symbol('AGENTS_DATABASE');

/** The TaskPlanner deciding each task's next step (default: DeclarativePlanner). */
export { TASK_PLANNER } from './tasks/task-planner';
