import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayNotEmpty,
  IsArray,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsPredicate } from './validators/is-predicate';
import { IsStringRecord } from './validators/is-string-record';
import { StepKindMember } from './validators/exactly-one-step-kind';

const STEP_ID = /^[A-Za-z0-9_.-]{1,64}$/;
const STEP_ID_MESSAGE = '$property must be 1-64 letters, digits, "_", "." or "-"';

export const DATA_PLANE_MODES = ['async', 'sync'] as const;

/** What every tool-calling step names: the MCP server, the tool, and its own arguments. */
abstract class ToolCallStepDto {
  @IsString()
  @IsNotEmpty()
  @MaxLength(128)
  server!: string;

  @IsString()
  @IsNotEmpty()
  @MaxLength(256)
  tool!: string;

  /** Tool arguments (for a resource call: other than abstract_domains / mode). */
  @IsOptional()
  @IsObject()
  arguments?: Record<string, unknown>;
}

/** RESOURCE_CALL: call an S2SP resource tool; only abstract_domains reach the control plane. */
export class ResourceCallStepDto extends ToolCallStepDto {
  /** Columns the model sees; the others stay on the data plane. At least one: the agents refuse a resource call without them. */
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(256)
  @IsString({ each: true })
  @IsNotEmpty({ each: true })
  abstract_domains!: string[];

  /** "async" (default): body cached behind a resource_url; "sync": body returned inline to the agent. */
  @IsOptional()
  @IsIn(DATA_PLANE_MODES)
  mode?: (typeof DATA_PLANE_MODES)[number];
}

/** FILTER: keep the abstract rows of input_step_id that match predicate. */
export class FilterStepDto {
  @Matches(STEP_ID, { message: STEP_ID_MESSAGE })
  input_step_id!: string;

  /** {"field","op","value"} | {"and":[...]} | {"or":[...]} | {"not":P}; op: eq ne in contains gt gte lt lte. */
  @IsObject()
  @IsPredicate()
  predicate!: Record<string, unknown>;
}

/** CONSUMER_CALL: call an S2SP consumer tool with the rows selected so far. */
export class ConsumerCallStepDto extends ToolCallStepDto {
  @Matches(STEP_ID, { message: STEP_ID_MESSAGE })
  input_step_id!: string;

  /** {"source_column": "consumer_column"} renames. */
  @IsOptional()
  @IsStringRecord()
  column_mapping?: Record<string, string>;
}

/** One step of an S2SP plan: a step_id and exactly one of resource_call, filter, consumer_call. */
export class PlanStepDto {
  @Matches(STEP_ID, { message: STEP_ID_MESSAGE })
  step_id!: string;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(64)
  @Matches(STEP_ID, { each: true, message: 'each of $property must be a step id' })
  depends_on?: string[];

  @StepKindMember('resource_call')
  // ValidateNested alone lets an array through (it validates its elements).
  @IsObject()
  @ValidateNested()
  @Type(() => ResourceCallStepDto)
  resource_call?: ResourceCallStepDto;

  @StepKindMember('filter')
  @IsObject()
  @ValidateNested()
  @Type(() => FilterStepDto)
  filter?: FilterStepDto;

  @StepKindMember('consumer_call')
  @IsObject()
  @ValidateNested()
  @Type(() => ConsumerCallStepDto)
  consumer_call?: ConsumerCallStepDto;
}
