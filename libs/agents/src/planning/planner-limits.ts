/** `plannerMaxTokens` when unset: `maxTokens` of each request of the model planner. */
export const DEFAULT_PLANNER_MAX_TOKENS = 1_024;

/** `plannerMaxTurns` when unset: model calls the model planner makes for one task before it fails it. */
export const DEFAULT_PLANNER_MAX_TURNS = 32;
