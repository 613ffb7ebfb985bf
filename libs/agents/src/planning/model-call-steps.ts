import { S2SP_CONSUMER_PARAMETERS, S2SP_RESOURCE_PARAMETERS } from '@s2sp/platform/internal';
import type { S2spModelTool } from '@s2sp/agent';
import type { JsonObject } from '@s2sp/contracts';
import type { ComparisonPredicate, Predicate } from '@s2sp/contracts/internal';
import type { PlanStep } from '../tasks/task-definition';
import { modelPlanError } from './model-plan-error';
import type { ModelToolUse, PlannerConversation } from './planner-conversation';

/** The choice-of-rows parameters a consumer tool takes in the model's view, instead of data. */
const ROW_CHOICE = ['handle', 'row_ids', 'where', 'column_mapping'];

/**
 * The steps one tool call of the planner's model becomes: a RESOURCE_CALL, or a CONSUMER_CALL
 * (after a FILTER when the model chose rows). Anything the runtime will not run is refused with
 * the reason: an unknown tool, arguments that are not an object, data or a resource_url the model
 * tried to pass itself, an unknown or spent handle, rows chosen by a body column.
 */
export function stepsOfModelCall(
  toolUse: ModelToolUse,
  tool: S2spModelTool,
  conversation: PlannerConversation,
): PlanStep[] {
  const stepId = conversation.newStepId();
  if (tool.kind === 'resource') {
    const { abstract_domains, ...rest } = toolUse.input;
    const domains = (Array.isArray(abstract_domains) ? abstract_domains.join(',') : String(abstract_domains ?? ''))
      .split(',')
      .map((domain) => domain.trim())
      .filter((domain) => domain !== '');
    if (domains.length === 0) throw modelPlanError(`called ${tool.name} without abstract_domains`);
    return [
      {
        kind: 'resource_call',
        stepId,
        dependsOn: [],
        tool: tool.mcpName,
        server: tool.serverId,
        arguments: withoutKeys(rest, S2SP_RESOURCE_PARAMETERS) as JsonObject,
        abstractDomains: domains,
        mode: 'async',
      },
    ];
  }
  const { handle, row_ids, where, column_mapping, ...own } = toolUse.input;
  const passedData = Object.keys(own).filter((key) => (S2SP_CONSUMER_PARAMETERS as readonly string[]).includes(key));
  if (passedData.length > 0) throw modelPlanError(`tried to pass ${passedData.join(', ')} to ${tool.name} itself`);
  if (typeof handle !== 'string') throw modelPlanError(`called ${tool.name} without the handle of a resource call`);
  const resource = conversation.resource(handle);
  if (!resource) throw modelPlanError(`called ${tool.name} with the unknown handle "${handle.slice(0, 64)}"`);
  if (resource.spent)
    throw modelPlanError(`handed the handle "${handle}" to a consumer twice (a resource serves once)`);
  const predicate = rowChoice(row_ids, where, resource.abstractDomains, handle);
  const steps: PlanStep[] = [];
  let inputStepId = handle;
  if (predicate) {
    inputStepId = `${stepId}-rows`;
    steps.push({ kind: 'filter', stepId: inputStepId, dependsOn: [handle], inputStepId: handle, predicate });
  }
  resource.spent = true;
  steps.push({
    kind: 'consumer_call',
    stepId,
    dependsOn: [inputStepId],
    tool: tool.mcpName,
    server: tool.serverId,
    arguments: withoutKeys(own, ROW_CHOICE) as JsonObject,
    columnMapping: columnMappingOf(column_mapping, tool.name),
    inputStepId,
  });
  return steps;
}

function rowChoice(
  rowIds: unknown,
  where: unknown,
  abstractDomains: readonly string[],
  handle: string,
): Predicate | undefined {
  const conditions: Predicate[] = [];
  if (rowIds !== undefined) {
    if (!Array.isArray(rowIds) || !rowIds.every((id) => Number.isSafeInteger(id) && (id as number) >= 0))
      throw modelPlanError('chose rows with row_ids that are not a list of _row_id numbers');
    conditions.push({ field: '_row_id', op: 'in', value: rowIds as number[] });
  }
  if (where !== undefined) {
    if (typeof where !== 'object' || where === null || Array.isArray(where))
      throw modelPlanError('chose rows with a where that is not an object of abstract columns');
    for (const [column, wanted] of Object.entries(where)) {
      if (!abstractDomains.includes(column)) {
        throw modelPlanError(
          `chose rows of "${handle}" by "${column}", which is not one of its abstract columns ` +
            `(${abstractDomains.join(', ')}): the body columns stay out of its context`,
        );
      }
      conditions.push(comparison(column, wanted));
    }
  }
  if (conditions.length === 0) return undefined;
  return conditions.length === 1 ? conditions[0] : { and: conditions };
}

function comparison(field: string, wanted: unknown): ComparisonPredicate {
  const values = Array.isArray(wanted) ? wanted : [wanted];
  if (!values.every((value) => value === null || ['string', 'number', 'boolean'].includes(typeof value)))
    throw modelPlanError(`chose rows with where.${field} that is not a value or a list of values`);
  return Array.isArray(wanted)
    ? { field, op: 'in', value: wanted as Array<string | number | boolean | null> }
    : { field, op: 'eq', value: wanted as string | number | boolean | null };
}

function columnMappingOf(mapping: unknown, toolName: string): Record<string, string> {
  if (mapping === undefined) return {};
  if (
    typeof mapping !== 'object' ||
    mapping === null ||
    Array.isArray(mapping) ||
    !Object.values(mapping).every((value) => typeof value === 'string')
  )
    throw modelPlanError(`gave ${toolName} a column_mapping that is not an object of column names`);
  return mapping as Record<string, string>;
}

function withoutKeys(input: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([key]) => !keys.includes(key)));
}
