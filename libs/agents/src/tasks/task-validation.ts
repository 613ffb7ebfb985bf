import type { Metadata } from '@grpc/grpc-js';
import { PredicateSyntaxError, v1, type JsonObject, type JsonValue } from '@s2sp/contracts';
import { jsonObjectOr, parsePredicate, timestampToMs } from '@s2sp/contracts/internal';
import { InvalidRequestError } from '../common/request-errors';
import { traceOf } from '../grpc/trace-context';
import { S2SP_RESOURCE_EXTENSION_PARAMETERS } from '@s2sp/platform';
import { isUuid, S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_PARAMETERS, uuidV7 } from '@s2sp/platform/internal';
import type {
  ConsumerCallPlanStep,
  FilterPlanStep,
  PlanStep,
  ResourceCallPlanStep,
  TaskConstraints,
  TaskDefinition,
  TaskObjective,
} from './task-definition';

export const MAX_PLAN_STEPS = 100;
export const MAX_STEP_LIMIT = 10_000;
export const SUPPORTED_SCHEMA_VERSION = 1;
export const DEFAULT_AGENT_TYPE = 's2sp-pipeline';

const STEP_ID = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/;
const MAX_PREDICATE_DEPTH = 32;
const MAX_TEXT = 10_000;
const MAX_LIST = 1_000;
// The agents read the default answer layout, so a plan cannot ask for the compact one either.
const RESOURCE_RESERVED_ARGUMENTS: readonly string[] = [
  ...S2SP_RESOURCE_PARAMETERS,
  ...S2SP_RESOURCE_EXTENSION_PARAMETERS,
];
const CONSUMER_RESERVED_ARGUMENTS: readonly string[] = S2SP_CONSUMER_PARAMETERS;

/**
 * Checks a submitted AgentTask and turns it into a TaskDefinition. Every
 * problem is an InvalidRequestError whose message starts with the field path
 * (e.g. `task.plan[2].filter.predicate.op`). `knownServers` are the
 * configured MCP server ids a step may name.
 */
export function validateAgentTask(
  task: v1.AgentTask | undefined,
  knownServers: readonly string[],
  metadata?: Metadata,
  options: { planRequired: boolean } = { planRequired: true },
): TaskDefinition {
  if (!task) throw new InvalidRequestError('task', 'is required');
  const taskId = text(task.task_id, 'task.task_id', 128).trim();
  const schemaVersion = task.schema_version || SUPPORTED_SCHEMA_VERSION;
  if (schemaVersion > SUPPORTED_SCHEMA_VERSION) {
    throw new InvalidRequestError(
      'task.schema_version',
      `${schemaVersion} is not supported (this agents service reads version ${SUPPORTED_SCHEMA_VERSION})`,
    );
  }
  const parentTaskId = text(task.parent_task_id, 'task.parent_task_id', 128);
  const definition: TaskDefinition = {
    taskId: isUuid(taskId) ? taskId.toLowerCase() : uuidV7(),
    agentType: text(task.agent_type, 'task.agent_type', 128) || DEFAULT_AGENT_TYPE,
    objective: objectiveOf(task),
    constraints: constraintsOf(task),
    plan: planOf(task.plan ?? [], knownServers, options.planRequired),
    deadlineMs: timestampToMs(task.deadline),
    caller: callerOf(task),
    trace: traceOf(task.trace, metadata),
    schemaVersion,
  };
  if (parentTaskId) definition.parentTaskId = parentTaskId;
  return definition;
}

function objectiveOf(task: v1.AgentTask): TaskObjective {
  const objective = task.objective ?? v1.TaskObjective.create();
  const goals = list(objective.goals, 'task.objective.goals', 100);
  return {
    natural_language: text(objective.natural_language, 'task.objective.natural_language', MAX_TEXT),
    goals: goals.map((goal, index) => ({
      name: text(goal.name, `task.objective.goals[${index}].name`, 256),
      description: text(goal.description, `task.objective.goals[${index}].description`, MAX_TEXT),
      parameters: jsonObjectOr(goal.parameters),
    })),
    success_criteria: list(objective.success_criteria, 'task.objective.success_criteria', 100).map((item, index) =>
      text(item, `task.objective.success_criteria[${index}]`, 1_000),
    ),
  };
}

function constraintsOf(task: v1.AgentTask): TaskConstraints {
  const constraints = task.constraints ?? v1.ExecutionConstraints.create();
  const maxSteps = constraints.max_steps ?? 0;
  if (maxSteps > MAX_STEP_LIMIT)
    throw new InvalidRequestError('task.constraints.max_steps', `must be at most ${MAX_STEP_LIMIT} (0 = no limit)`);
  const maxDepth = constraints.max_recursion_depth ?? 0;
  if (maxDepth > 100) throw new InvalidRequestError('task.constraints.max_recursion_depth', 'must be at most 100');
  const cost = Number(constraints.cost_budget_microdollars ?? 0);
  if (!Number.isSafeInteger(cost) || cost < 0)
    throw new InvalidRequestError('task.constraints.cost_budget_microdollars', 'is out of range');
  const permittedTools = list(constraints.permitted_tools, 'task.constraints.permitted_tools', MAX_LIST).map(
    (name, index) => {
      const field = `task.constraints.permitted_tools[${index}]`;
      const value = text(name, field, 513).trim();
      if (value === '') throw new InvalidRequestError(field, 'must not be empty');
      return value;
    },
  );
  return {
    maxSteps,
    maxRecursionDepth: maxDepth,
    tokenBudget: constraints.token_budget ?? 0,
    costBudgetMicrodollars: cost,
    permittedTools,
    prohibitedActions: list(constraints.prohibited_actions, 'task.constraints.prohibited_actions', MAX_LIST).map(
      (item, index) => text(item, `task.constraints.prohibited_actions[${index}]`, 256),
    ),
  };
}

function callerOf(task: v1.AgentTask): string | undefined {
  const subject =
    text(task.auth?.subject, 'task.auth.subject', 256) || text(task.auth?.client_id, 'task.auth.client_id', 256);
  return subject || undefined;
}

function planOf(messages: v1.PlanStep[], knownServers: readonly string[], required: boolean): PlanStep[] {
  if (messages.length === 0 && required) {
    throw new InvalidRequestError(
      'task.plan',
      'must have at least one step (these agents run the plan they are given; a task with only an objective needs their model planner)',
    );
  }
  if (messages.length > MAX_PLAN_STEPS)
    throw new InvalidRequestError('task.plan', `must have at most ${MAX_PLAN_STEPS} steps`);
  const steps: PlanStep[] = [];
  const byId = new Map<string, PlanStep>();
  messages.forEach((message, index) => {
    const field = `task.plan[${index}]`;
    const stepId = text(message.step_id, `${field}.step_id`, 128);
    if (!STEP_ID.test(stepId)) {
      throw new InvalidRequestError(
        `${field}.step_id`,
        stepId === '' ? 'is required' : 'must be letters, digits, "_", ".", ":" or "-" (at most 128)',
      );
    }
    if (byId.has(stepId))
      throw new InvalidRequestError(
        `${field}.step_id`,
        `"${stepId}" is used by an earlier step; step ids must be unique`,
      );
    const dependsOn = list(message.depends_on, `${field}.depends_on`, MAX_PLAN_STEPS).map((id, position) => {
      if (!byId.has(id))
        throw new InvalidRequestError(`${field}.depends_on[${position}]`, `"${id}" is not an earlier step`);
      return id;
    });
    const step = stepOf(message, field, stepId, dependsOn, byId, steps, knownServers);
    steps.push(step);
    byId.set(stepId, step);
  });
  checkSingleUseResources(steps, byId);
  return steps;
}

function stepOf(
  message: v1.PlanStep,
  field: string,
  stepId: string,
  dependsOn: string[],
  earlier: Map<string, PlanStep>,
  ordered: PlanStep[],
  knownServers: readonly string[],
): PlanStep {
  switch (planStepKind(message)) {
    case 'resource_call': {
      const call = message.resource_call ?? v1.ResourceCallStep.create();
      const path = `${field}.resource_call`;
      const args = argumentsOf(
        call.arguments,
        `${path}.arguments`,
        RESOURCE_RESERVED_ARGUMENTS,
        'set by the agents from the step',
      );
      const domains = list(call.abstract_domains, `${path}.abstract_domains`, 256).map((domain, index) => {
        const domainField = `${path}.abstract_domains[${index}]`;
        const name = text(domain, domainField, 256).trim();
        if (name === '' || name.includes(','))
          throw new InvalidRequestError(domainField, 'must be a non-empty column name without ","');
        return name;
      });
      if (domains.length === 0) {
        throw new InvalidRequestError(
          `${path}.abstract_domains`,
          'must name at least one column: the control plane of an S2SP resource call',
        );
      }
      if (new Set(domains).size !== domains.length)
        throw new InvalidRequestError(`${path}.abstract_domains`, 'must not repeat a column');
      const step: ResourceCallPlanStep = {
        kind: 'resource_call',
        stepId,
        dependsOn,
        tool: toolName(call.tool, `${path}.tool`),
        arguments: args,
        abstractDomains: domains,
        mode: modeOf(call.mode, `${path}.mode`),
      };
      const server = serverOf(call.server, `${path}.server`, knownServers);
      if (server) step.server = server;
      return step;
    }
    case 'filter': {
      const filter = message.filter ?? v1.FilterStep.create();
      const path = `${field}.filter`;
      const inputStepId = text(filter.input_step_id, `${path}.input_step_id`, 128);
      if (inputStepId === '') throw new InvalidRequestError(`${path}.input_step_id`, 'is required');
      rowSource(inputStepId, `${path}.input_step_id`, earlier);
      if (!filter.predicate) throw new InvalidRequestError(`${path}.predicate`, 'is required');
      const predicateJson = jsonObjectOr(filter.predicate);
      if (depthOf(predicateJson) > MAX_PREDICATE_DEPTH)
        throw new InvalidRequestError(`${path}.predicate`, `is nested deeper than ${MAX_PREDICATE_DEPTH} levels`);
      let predicate;
      try {
        predicate = parsePredicate(predicateJson);
      } catch (error) {
        if (error instanceof PredicateSyntaxError) throw new InvalidRequestError(`${path}.predicate`, error.message);
        throw error;
      }
      const step: FilterPlanStep = { kind: 'filter', stepId, dependsOn, inputStepId, predicate };
      return step;
    }
    case 'consumer_call': {
      const call = message.consumer_call ?? v1.ConsumerCallStep.create();
      const path = `${field}.consumer_call`;
      let inputStepId = text(call.input_step_id, `${path}.input_step_id`, 128);
      if (inputStepId === '') {
        const previous = [...ordered].reverse().find((step) => step.kind !== 'consumer_call');
        if (!previous)
          throw new InvalidRequestError(
            `${path}.input_step_id`,
            'no earlier RESOURCE_CALL or FILTER step supplies rows',
          );
        inputStepId = previous.stepId;
      } else {
        rowSource(inputStepId, `${path}.input_step_id`, earlier);
      }
      const columnMapping: Record<string, string> = {};
      for (const [source, target] of Object.entries(call.column_mapping ?? {})) {
        const mappingField = `${path}.column_mapping["${source.slice(0, 64)}"]`;
        if (
          source === '' ||
          source.length > 256 ||
          typeof target !== 'string' ||
          target === '' ||
          target.length > 256
        ) {
          throw new InvalidRequestError(
            mappingField,
            'source and target columns must be non-empty, at most 256 characters',
          );
        }
        Object.defineProperty(columnMapping, source, {
          value: target,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      const step: ConsumerCallPlanStep = {
        kind: 'consumer_call',
        stepId,
        dependsOn,
        tool: toolName(call.tool, `${path}.tool`),
        arguments: argumentsOf(
          call.arguments,
          `${path}.arguments`,
          CONSUMER_RESERVED_ARGUMENTS,
          'filled in by the agents',
        ),
        columnMapping,
        inputStepId,
      };
      const server = serverOf(call.server, `${path}.server`, knownServers);
      if (server) step.server = server;
      return step;
    }
    default:
      throw new InvalidRequestError(field, 'set exactly one of resource_call, filter or consumer_call');
  }
}

/** Which member of PlanStep's `kind` oneof is set; undefined when none or several are. */
function planStepKind(message: v1.PlanStep): 'resource_call' | 'filter' | 'consumer_call' | undefined {
  const set = (['resource_call', 'filter', 'consumer_call'] as const).filter((kind) => message[kind] !== undefined);
  return set.length === 1 ? set[0] : undefined;
}

/** A step that supplies rows (RESOURCE_CALL or FILTER) and comes earlier in the plan. */
function rowSource(stepId: string, field: string, earlier: Map<string, PlanStep>): PlanStep {
  const step = earlier.get(stepId);
  if (!step) throw new InvalidRequestError(field, `"${stepId}" is not an earlier step`);
  if (step.kind === 'consumer_call')
    throw new InvalidRequestError(field, `"${stepId}" is a CONSUMER_CALL, which supplies no rows`);
  return step;
}

/** The RESOURCE_CALL a row-supplying step's rows come from. */
export function originResourceStep(
  stepId: string,
  steps: ReadonlyMap<string, PlanStep>,
): ResourceCallPlanStep | undefined {
  let step = steps.get(stepId);
  for (let hops = 0; step && hops <= MAX_PLAN_STEPS; hops++) {
    if (step.kind === 'resource_call') return step;
    if (step.kind === 'consumer_call') return undefined;
    step = steps.get(step.inputStepId);
  }
  return undefined;
}

/** A resource_url is single-use: two async consumers of one resource call would fail at the second fetch. */
function checkSingleUseResources(steps: PlanStep[], byId: Map<string, PlanStep>): void {
  const consumedBy = new Map<string, string>();
  steps.forEach((step, index) => {
    if (step.kind !== 'consumer_call') return;
    const origin = originResourceStep(step.inputStepId, byId);
    if (!origin || origin.mode !== 'async') return;
    const first = consumedBy.get(origin.stepId);
    if (first) {
      throw new InvalidRequestError(
        `task.plan[${index}].consumer_call.input_step_id`,
        `steps "${first}" and "${step.stepId}" both consume the async resource of "${origin.stepId}", but a resource_url is single-use; use DATA_PLANE_MODE_SYNC or call the resource tool once per consumer`,
      );
    }
    consumedBy.set(origin.stepId, step.stepId);
  });
}

function argumentsOf(
  struct: v1.ResourceCallStep['arguments'],
  field: string,
  reserved: readonly string[],
  why: string,
): JsonObject {
  const args = jsonObjectOr(struct);
  const clash = reserved.filter((name) => Object.prototype.hasOwnProperty.call(args, name));
  if (clash.length > 0) throw new InvalidRequestError(field, `must not contain ${clash.join(', ')} (${why})`);
  return args;
}

function modeOf(mode: string | undefined, field: string): 'async' | 'sync' {
  if (mode === undefined || mode === '' || mode === 'DATA_PLANE_MODE_UNSPECIFIED' || mode === 'DATA_PLANE_MODE_ASYNC')
    return 'async';
  if (mode === 'DATA_PLANE_MODE_SYNC') return 'sync';
  throw new InvalidRequestError(field, `unknown mode ${JSON.stringify(mode)}`);
}

function toolName(value: string | undefined, field: string): string {
  const name = text(value, field, 256);
  if (name.trim() === '') throw new InvalidRequestError(field, 'is required');
  return name;
}

function serverOf(value: string | undefined, field: string, knownServers: readonly string[]): string | undefined {
  const server = text(value, field, 64);
  if (server === '') return undefined;
  if (!knownServers.includes(server)) {
    throw new InvalidRequestError(
      field,
      `no MCP server "${server}" is configured (known: ${knownServers.join(', ') || 'none'})`,
    );
  }
  return server;
}

function text(value: string | undefined | null, field: string, maxLength: number): string {
  const result = value ?? '';
  if (typeof result !== 'string') throw new InvalidRequestError(field, 'must be a string');
  if (result.length > maxLength) throw new InvalidRequestError(field, `must be at most ${maxLength} characters`);
  // eslint-disable-next-line no-control-regex -- control characters are what this pattern finds
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(result))
    throw new InvalidRequestError(field, 'must not contain control characters');
  return result;
}

function list<T>(value: T[] | undefined | null, field: string, max: number): T[] {
  const items = value ?? [];
  if (!Array.isArray(items)) throw new InvalidRequestError(field, 'must be a list');
  if (items.length > max) throw new InvalidRequestError(field, `must have at most ${max} entries`);
  return items;
}

function depthOf(value: JsonValue, depth = 0): number {
  let deepest = depth;
  const children = Array.isArray(value)
    ? value
    : value !== null && typeof value === 'object'
      ? Object.values(value)
      : [];
  for (const child of children) {
    if (deepest > MAX_PREDICATE_DEPTH) break;
    deepest = Math.max(deepest, depthOf(child, depth + 1));
  }
  return deepest;
}
