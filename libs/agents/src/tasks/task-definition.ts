import type { CallerIdentity } from '@s2sp/auth';
import type { JsonObject } from '@s2sp/contracts';
import type { Predicate } from '@s2sp/contracts/internal';
import type { TraceRecord } from '../grpc/trace-context';

/**
 * RESOURCE_CALL: call an S2SP resource tool; only abstract_domains reach the control plane.
 * @public
 */
export interface ResourceCallPlanStep {
  kind: 'resource_call';
  stepId: string;
  dependsOn: string[];
  tool: string;
  server?: string;
  arguments: JsonObject;
  abstractDomains: string[];
  mode: 'async' | 'sync';
}

/**
 * FILTER: keep the abstract rows of inputStepId that match the predicate.
 * @public
 */
export interface FilterPlanStep {
  kind: 'filter';
  stepId: string;
  dependsOn: string[];
  inputStepId: string;
  predicate: Predicate;
}

/**
 * CONSUMER_CALL: hand the rows of inputStepId to an S2SP consumer tool.
 * @public
 */
export interface ConsumerCallPlanStep {
  kind: 'consumer_call';
  stepId: string;
  dependsOn: string[];
  tool: string;
  server?: string;
  arguments: JsonObject;
  columnMapping: Record<string, string>;
  inputStepId: string;
}

/** @public */
export type PlanStep = ResourceCallPlanStep | FilterPlanStep | ConsumerCallPlanStep;

/** @public */
export interface TaskConstraints {
  /** 0 = no limit. Counts executed plan steps (the PLAN step itself is not counted). */
  maxSteps: number;
  maxRecursionDepth: number;
  /** 0 = no limit. Tokens allowed into the planner's context (the control plane). */
  tokenBudget: number;
  costBudgetMicrodollars: number;
  /** Empty = every tool. Entries are "tool" or "server/tool". */
  permittedTools: string[];
  prohibitedActions: string[];
}

/** @public */
export interface TaskObjective {
  natural_language: string;
  goals: Array<{ name: string; description: string; parameters: JsonObject }>;
  success_criteria: string[];
}

/**
 * A validated AgentTask, as the runtime and the planner see it.
 * @public
 */
export interface TaskDefinition {
  taskId: string;
  parentTaskId?: string;
  agentType: string;
  objective: TaskObjective;
  constraints: TaskConstraints;
  plan: PlanStep[];
  /** Absolute deadline (epoch ms) bounding every step. */
  deadlineMs?: number;
  /** Subject of the verified caller (the task's owner); never the credential. */
  caller?: string;
  /** The verified caller, while this process runs the task: every step's MCP token is narrowed from it. Never stored. */
  identity?: CallerIdentity;
  trace?: TraceRecord;
  schemaVersion: number;
}
