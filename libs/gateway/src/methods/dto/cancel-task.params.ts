import { IsIn, IsOptional, IsString, IsUUID, MaxLength } from 'class-validator';
import { IdempotencyKey } from '../../idempotency/idempotency-key.decorator';

export const CANCEL_MODES = ['soft', 'hard'] as const;

/** Params of agent.cancelTask. */
export class CancelTaskParams {
  @IsUUID()
  task_id!: string;

  /** "soft": finish the current step, then stop; "hard": abort now, partial results discarded. */
  @IsIn(CANCEL_MODES)
  mode!: (typeof CANCEL_MODES)[number];

  /** Why, for the task's record. */
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  reason?: string;

  @IdempotencyKey()
  idempotency_key?: string;
}
