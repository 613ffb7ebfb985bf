import { Injectable } from '@nestjs/common';
import type { PlannerContext } from './planner-context';
import type { TaskDefinition } from './task-definition';
import type { PlannerDecision, TaskPlanner } from './task-planner';

/**
 * The default planner: runs the task's own `plan`, in order, step by step.
 * @public
 */
@Injectable()
export class DeclarativePlanner implements TaskPlanner {
  readonly name = 'declarative';

  next(task: TaskDefinition, context: PlannerContext): PlannerDecision {
    const step = task.plan.find((candidate) => !context.hasCompleted(candidate.stepId));
    return step ? { type: 'step', step } : { type: 'done' };
  }
}
