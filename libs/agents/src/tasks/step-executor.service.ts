import { Injectable } from '@nestjs/common';
import { S2SP_META, type Row } from '@s2sp/core';
import { countTokens } from '@s2sp/core/internal';
import { type JsonObject, AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import { evaluatePredicate } from '@s2sp/contracts/internal';
import { PreconditionFailedError } from '../common/request-errors';
import { originOf, sanitizeText } from '../common/redact';
import { emptyUsage, type UsageRecord } from '../common/usage';
import { uuidV7 } from '@s2sp/platform/internal';
import type { RegisteredTool } from '../mcp/registered-tool';
import type { ToolKindName } from '../mcp/tool-classification';
import { dataPlaneRefOf, type DataPlaneRefRecord } from '../tools/data-plane-ref';
import { textOfContent } from '../tools/mcp-tool-result';
import { HandleError, readS2spResourceAnswer, type BufferedBody } from '@s2sp/agent';
import { withSamplingTask } from '../sampling/sampling-task-scope';
import { ToolInvoker, type ToolInvocation, type ToolInvocationOutcome } from '../tools/tool-invoker.service';
import { taskError, type TaskErrorInfo } from './agent-errors';
import type { PlannerContext } from './planner-context';
import { classifyStepError, StepFailure } from './step-failure';
import type {
  ConsumerCallPlanStep,
  FilterPlanStep,
  PlanStep,
  ResourceCallPlanStep,
  TaskDefinition,
} from './task-definition';
import type { StepRecord, StepTypeName, ToolCallRecord } from './task-records';
import { isPermittedTool } from './permitted-tools';
import { originResourceStep } from './task-validation';
import type { ResourceHandle, TaskWorkspace } from './task-workspace';

/** Everything a step runs with. */
export interface StepEnvironment {
  task: TaskDefinition;
  context: PlannerContext;
  workspace: TaskWorkspace;
  /** Every step the planner has handed out so far, by id (to find a consumer's resource call). */
  steps: ReadonlyMap<string, PlanStep>;
  stepNumber: number;
  /** Aborted by a hard cancel; cancels the in-flight MCP request. */
  signal: AbortSignal;
}

/** A finished step: its record and, for the task result, what it produced (control plane only). */
export interface StepSuccess {
  record: StepRecord;
  output: JsonObject;
}

const PREVIEW_ROWS = 20;
const MAX_RESULT_TEXT = 2_000;
const STEP_TYPE: Record<PlanStep['kind'], StepTypeName> = {
  resource_call: 'RETRIEVE',
  filter: 'VERIFY',
  consumer_call: 'ACT',
};

/**
 * Runs one plan step. RESOURCE_CALL (RETRIEVE): calls the resource tool with
 * abstract_domains and mode, admits the abstract JSON to the planner's
 * context and keeps body/resource_url in the workspace. FILTER (VERIFY):
 * applies the predicate to the input step's abstract rows. CONSUMER_CALL
 * (ACT): hands the selected abstract rows plus the resource_url (async) or
 * the buffered body rows (sync) to the consumer tool and admits its text
 * answer. Token accounting: tokens_in_context = what was admitted;
 * tokens_kept_out = the body (`_meta['s2sp/body_tokens']` async, the
 * buffered body JSON sync). Failures throw StepFailure.
 */
@Injectable()
export class StepExecutor {
  constructor(private readonly invoker: ToolInvoker) {}

  async execute(step: PlanStep, env: StepEnvironment): Promise<StepSuccess> {
    const draft = new StepDraft(step, env);
    try {
      switch (step.kind) {
        case 'resource_call':
          return await this.resourceCall(step, env, draft);
        case 'filter':
          return this.filter(step, env, draft);
        case 'consumer_call':
          return await this.consumerCall(step, env, draft);
      }
    } catch (error) {
      if (error instanceof StepFailure) throw error;
      const failure = classifyStepError(error);
      draft.markLastCall(failure.callStatus);
      throw new StepFailure(draft.fail(failure.error), failure.error, failure.cancelled);
    }
  }

  private async resourceCall(step: ResourceCallPlanStep, env: StepEnvironment, draft: StepDraft): Promise<StepSuccess> {
    const tool = await this.resolve(step.tool, step.server, 'S2SP_RESOURCE', env);
    const consumer = step.mode === 'async' ? await this.consumerAudience(step, env) : undefined;
    const outcome = await this.invoke(
      tool,
      { ...step.arguments, abstract_domains: step.abstractDomains.join(','), mode: step.mode },
      env,
      draft,
      {
        meta: { [S2SP_META.COUNT_TOKENS]: true, ...(consumer ? { [S2SP_META.CONSUMER]: consumer } : {}) },
      },
    );
    if (outcome.result.isError) throw this.toolError(outcome, draft);
    const answer = readS2spResourceAnswer(outcome.result);
    if (!answer) {
      throw new PreconditionFailedError(
        `${tool.name} on "${tool.serverId}" did not answer with an S2SP abstract`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.FIX_PLAN,
      );
    }
    const entry = env.context.admit(step.stepId, 'resource-abstract', JSON.stringify(answer.controlPlane));
    env.context.recordRows(step.stepId, answer.abstract);
    env.workspace.keep(step.stepId, answer, { serverId: tool.serverId, tool: tool.name, scopes: tool.scopes });

    const bodyJson = answer.body !== undefined ? JSON.stringify(answer.body) : undefined;
    const usage: UsageRecord = {
      ...emptyUsage(),
      tokens_in_context: entry.tokens,
      tokens_kept_out: bodyJson !== undefined ? countTokens(bodyJson) : (answer.bodyTokens ?? 0),
      tool_calls: 1,
      data_plane_bytes: bodyJson !== undefined ? Buffer.byteLength(bodyJson) : (answer.bodyBytes ?? 0),
      rows_in_context: answer.abstract.length,
      rows_kept_out: answer.totalRows,
    };
    const dataPlane = dataPlaneRefOf(answer, false);
    draft.completeLastCall('SUCCESS', usage, dataPlane);
    draft.usage = usage;
    const where =
      answer.resourceUrl !== undefined
        ? `async data plane at ${originOf(answer.resourceUrl)}`
        : 'sync, buffered by the agents';
    draft.summary =
      `${tool.name} on "${tool.serverId}": ${answer.totalRows} rows; ${answer.abstractDomains.length} abstract columns in context ` +
      `(${usage.tokens_in_context} tokens), ${answer.bodyDomains.length} body columns kept out (${usage.tokens_kept_out} tokens, ${where})`;
    draft.payload = {
      tool: tool.name,
      server: tool.serverId,
      mode: step.mode,
      total_rows: answer.totalRows,
      abstract_domains: answer.abstractDomains,
      body_domains: answer.bodyDomains,
      abstract_row_count: answer.abstract.length,
      abstract_preview: answer.abstract.slice(0, PREVIEW_ROWS) as JsonObject[],
      context_tokens_total: env.context.tokens,
    };
    this.checkTokenBudget(env, draft);
    return { record: draft.succeed(), output: { abstract: answer.abstract as JsonObject[] } };
  }

  private filter(step: FilterPlanStep, env: StepEnvironment, draft: StepDraft): StepSuccess {
    const rows = this.inputRows(step.inputStepId, env);
    const selected = rows.filter((row) => evaluatePredicate(step.predicate, row));
    env.context.recordRows(step.stepId, selected);
    draft.summary = `kept ${selected.length} of ${rows.length} rows of "${step.inputStepId}"`;
    draft.payload = {
      input_step_id: step.inputStepId,
      input_rows: rows.length,
      matched_rows: selected.length,
      row_ids: selected.map((row) => row._row_id as number),
    };
    return { record: draft.succeed(), output: { rows: selected as JsonObject[] } };
  }

  private async consumerCall(step: ConsumerCallPlanStep, env: StepEnvironment, draft: StepDraft): Promise<StepSuccess> {
    const rows = this.inputRows(step.inputStepId, env);
    const origin = originResourceStep(step.inputStepId, env.steps);
    const handle = origin ? this.resourceOf(origin.stepId, env) : undefined;
    if (!origin || !handle) {
      throw new PreconditionFailedError(
        `the rows of "${step.inputStepId}" do not come from a RESOURCE_CALL of this task`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.FIX_PLAN,
      );
    }
    const tool = await this.resolve(step.tool, step.server, 'S2SP_CONSUMER', env);
    const args: Record<string, unknown> = { ...step.arguments, abstract_data: JSON.stringify(rows) };
    const handedOver = this.handOver(origin.stepId, rows, env);
    if (handedOver.mode === 'async') args.resource_url = handedOver.resourceUrl;
    else args.body_data = JSON.stringify(handedOver.body);
    if (Object.keys(step.columnMapping).length > 0) args.column_mapping = JSON.stringify(step.columnMapping);

    // The consumer's token carries the data-plane scopes of this one resource, not of every resource tool.
    const meta = handle.mode === 'async' ? { [S2SP_META.TOTAL_ROWS]: handle.totalRows } : undefined;
    const outcome = await this.invoke(tool, args, env, draft, {
      dataSourceScopes: handle.sourceScopes,
      ...(meta ? { meta } : {}),
    });
    if (outcome.result.isError) throw this.toolError(outcome, draft);
    const text = textOfContent(outcome.result);
    const entry = env.context.admit(step.stepId, 'consumer-result', text);
    const usage: UsageRecord = { ...emptyUsage(), tokens_in_context: entry.tokens, tool_calls: 1 };
    draft.completeLastCall('SUCCESS', usage);
    draft.usage = usage;
    draft.summary = `${tool.name} on "${tool.serverId}" took ${rows.length} rows (${handle.mode}): ${truncate(text, 200) || '(no text)'}`;
    draft.payload = {
      tool: tool.name,
      server: tool.serverId,
      mode: handle.mode,
      rows_handed_over: rows.length,
      result_text: truncate(text, MAX_RESULT_TEXT),
      content_types: outcome.result.content.map((block) => String(block.type)),
      context_tokens_total: env.context.tokens,
    };
    this.checkTokenBudget(env, draft);
    const output: JsonObject = { content: outcome.result.content };
    if (outcome.result.structuredContent) output.structuredContent = outcome.result.structuredContent;
    return { record: draft.succeed(), output };
  }

  /** The resource a step kept; an async one already handed to a consumer cannot serve another (its URL serves once). */
  private resourceOf(stepId: string, env: StepEnvironment): ResourceHandle | undefined {
    try {
      return env.workspace.handle(stepId);
    } catch (error) {
      if (!(error instanceof HandleError)) throw error;
      throw new PreconditionFailedError(
        `the resource_url of "${stepId}" was already handed to a consumer, and the resource server serves it once`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.FIX_PLAN,
      );
    }
  }

  private handOver(stepId: string, rows: readonly Row[], env: StepEnvironment): BufferedBody {
    try {
      return env.workspace.handOver(stepId, rows);
    } catch (error) {
      if (!(error instanceof HandleError)) throw error;
      throw new PreconditionFailedError(
        `the resource of "${stepId}" cannot be handed over: ${error.message}`,
        AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
        RECOVERY_HINT.RESUBMIT_TASK,
      );
    }
  }

  /**
   * The service of the plan's consumer of this resource call: the resource
   * server binds the resource_url to it, so no other consumer can spend it.
   */
  private async consumerAudience(step: ResourceCallPlanStep, env: StepEnvironment): Promise<string | undefined> {
    const plan = new Map(env.task.plan.map((planned) => [planned.stepId, planned] as const));
    const consumer = env.task.plan.find(
      (planned): planned is ConsumerCallPlanStep =>
        planned.kind === 'consumer_call' && originResourceStep(planned.inputStepId, plan) === step,
    );
    if (!consumer) return undefined;
    const tool = await this.invoker.resolve(consumer.tool, consumer.server, env.task.deadlineMs, env.signal);
    return this.invoker.audienceOf(tool.serverId);
  }

  private async resolve(
    name: string,
    server: string | undefined,
    kind: ToolKindName,
    env: StepEnvironment,
  ): Promise<RegisteredTool> {
    const tool = await this.invoker.resolve(name, server, env.task.deadlineMs, env.signal);
    if (!isPermittedTool(env.task.constraints.permittedTools, tool)) {
      throw new PreconditionFailedError(
        `${tool.name} on "${tool.serverId}" is not in constraints.permitted_tools`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.PERMIT_TOOL,
      );
    }
    if (tool.kind !== kind) {
      const wanted = kind === 'S2SP_RESOURCE' ? 'an S2SP resource tool' : 'an S2SP consumer tool';
      throw new PreconditionFailedError(
        `${tool.name} on "${tool.serverId}" is not ${wanted}`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.FIX_PLAN,
      );
    }
    return tool;
  }

  private async invoke(
    tool: RegisteredTool,
    args: Record<string, unknown>,
    env: StepEnvironment,
    draft: StepDraft,
    extra: Pick<ToolInvocation, 'meta' | 'dataSourceScopes'> = {},
  ): Promise<ToolInvocationOutcome> {
    draft.startCall(tool);
    if (!env.task.identity) throw new Error(`task ${env.task.taskId} has no verified caller to act for`);
    const caller = env.task.identity;
    return withSamplingTask(env.task.taskId, () =>
      this.invoker.invoke({
        tool,
        caller,
        traceId: env.task.trace?.trace_id,
        arguments: args,
        deadlineMs: env.task.deadlineMs,
        signal: env.signal,
        ...extra,
      }),
    );
  }

  private inputRows(stepId: string, env: StepEnvironment): Row[] {
    const rows = env.context.rowsOf(stepId);
    if (!rows) {
      throw new PreconditionFailedError(
        `step "${stepId}" has not produced rows yet`,
        AGENT_EXECUTION_ERROR.PRECONDITION_FAILED,
        RECOVERY_HINT.FIX_PLAN,
      );
    }
    return rows;
  }

  private toolError(outcome: ToolInvocationOutcome, draft: StepDraft): StepFailure {
    const text = sanitizeText(textOfContent(outcome.result) || 'the tool reported an error');
    const error = taskError(
      AGENT_EXECUTION_ERROR.TOOL_FAILURE,
      `${outcome.tool.name} on "${outcome.tool.serverId}" failed: ${text}`,
      RECOVERY_HINT.CHECK_TOOL_ARGUMENTS,
      {
        tool: outcome.tool.name,
        server: outcome.tool.serverId,
      },
    );
    draft.completeLastCall('ERROR', { ...emptyUsage(), tool_calls: 1 });
    return new StepFailure(draft.fail(error), error, false);
  }

  /** constraints.token_budget: stop as soon as the control plane alone needs more. */
  private checkTokenBudget(env: StepEnvironment, draft: StepDraft): void {
    const budget = env.task.constraints.tokenBudget;
    if (budget <= 0 || env.context.tokens <= budget) return;
    const error = taskError(
      AGENT_EXECUTION_ERROR.TOKEN_BUDGET_EXCEEDED,
      `the planner's context needs ${env.context.tokens} tokens after step "${draft.planStepId}", more than token_budget ${budget}`,
      RECOVERY_HINT.REDUCE_ABSTRACT_DOMAINS,
      { context_tokens: env.context.tokens, token_budget: budget },
    );
    throw new StepFailure(draft.fail(error), error, false);
  }
}

/** Builds one StepRecord while the step runs. */
class StepDraft {
  readonly planStepId: string;
  summary = '';
  payload: JsonObject = {};
  usage: UsageRecord = emptyUsage();
  private readonly startedAt = Date.now();
  private readonly calls: ToolCallRecord[] = [];
  private openCall: ToolCallRecord | undefined;

  constructor(
    private readonly step: PlanStep,
    private readonly env: StepEnvironment,
  ) {
    this.planStepId = step.stepId;
  }

  startCall(tool: RegisteredTool): void {
    const now = Date.now();
    this.openCall = {
      invocation_id: uuidV7(now),
      tool_name: tool.name,
      server: tool.serverId,
      status: 'ERROR',
      usage: { ...emptyUsage(), tool_calls: 1 },
      started_at_ms: now,
      finished_at_ms: now,
    };
    this.calls.push(this.openCall);
  }

  completeLastCall(status: ToolCallRecord['status'], usage: UsageRecord, dataPlane?: DataPlaneRefRecord): void {
    const call = this.openCall;
    if (!call) return;
    this.openCall = undefined;
    call.status = status;
    call.finished_at_ms = Date.now();
    call.usage = { ...usage, wall_time_ms: call.finished_at_ms - call.started_at_ms };
    if (dataPlane) call.data_plane = dataPlane;
  }

  /** After a thrown error: the call still open (if any) ends with this status. */
  markLastCall(status: ToolCallRecord['status']): void {
    if (this.openCall) this.completeLastCall(status, { ...emptyUsage(), tool_calls: 1 });
  }

  succeed(): StepRecord {
    return this.build('SUCCESS');
  }

  fail(error: TaskErrorInfo): StepRecord {
    if (this.summary === '') this.summary = `step "${this.planStepId}" failed: ${error.message}`;
    return { ...this.build('FAILURE'), error };
  }

  private build(outcome: 'SUCCESS' | 'FAILURE'): StepRecord {
    const finishedAt = Date.now();
    const toolCalls = this.calls.length;
    return {
      task_id: this.env.task.taskId,
      step_number: this.env.stepNumber,
      type: STEP_TYPE[this.step.kind],
      outcome,
      plan_step_id: this.step.stepId,
      summary: this.summary,
      payload: this.payload,
      tool_calls: this.calls,
      usage: {
        ...this.usage,
        tool_calls: Math.max(this.usage.tool_calls, toolCalls),
        wall_time_ms: finishedAt - this.startedAt,
      },
      started_at_ms: this.startedAt,
      finished_at_ms: finishedAt,
    };
  }
}

function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
