import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import { IdempotencyKey } from '../../idempotency/idempotency-key.decorator';
import { PlanStepDto } from './plan-step.dto';

const UINT32_MAX = 4_294_967_295;

/** ExecutionConstraints of agent.proto; every member optional. */
export class ExecutionConstraintsDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(10_000)
  max_steps?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(64)
  max_recursion_depth?: number;

  /** Most tokens allowed into the model's context. */
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(UINT32_MAX)
  token_budget?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(Number.MAX_SAFE_INTEGER)
  cost_budget_microdollars?: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  permitted_tools?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  prohibited_actions?: string[];
}

/** Params of agent.submitTask. */
export class SubmitTaskParams {
  /** What the task is for, in natural language. */
  @IsString()
  @IsNotEmpty()
  @MaxLength(4000)
  objective!: string;

  /**
   * The S2SP plan: resource calls, filters and consumer calls, in order. Empty: the agents' model
   * planner decides the steps from the objective (agents started with AGENTS_PLANNER=model).
   */
  @IsArray()
  @ArrayMaxSize(64)
  // ValidateNested alone lets an array element through (it validates its elements).
  @IsObject({ each: true })
  @ValidateNested({ each: true })
  @Type(() => PlanStepDto)
  plan!: PlanStepDto[];

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => ExecutionConstraintsDto)
  constraints?: ExecutionConstraintsDto;

  /** Client-chosen task id (a UUID); the gateway assigns a UUID v7 when omitted. */
  @IsOptional()
  @IsUUID()
  task_id?: string;

  @IdempotencyKey()
  idempotency_key?: string;
}
