import { AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import { PreconditionFailedError } from '../common/request-errors';

/** The planner's model answered something the runtime will not run; the task fails with this reason. */
export function modelPlanError(reason: string): PreconditionFailedError {
  return new PreconditionFailedError(
    `the planner's model ${reason}`,
    AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
    RECOVERY_HINT.REVISE_TASK,
  );
}
