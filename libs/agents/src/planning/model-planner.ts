import { Inject, Injectable } from '@nestjs/common';
import type { CreateMessageResultWithTools, Tool } from '@modelcontextprotocol/client';
import { s2spModelTools, type McpToolDefinition, type S2spModelTool } from '@s2sp/agent';
import { AGENT_EXECUTION_ERROR, RECOVERY_HINT } from '@s2sp/contracts';
import { AGENTS_CONFIG } from '../agents.tokens';
import type { AgentsConfig } from '../agents.config';
import { DeadlineExceededError } from '../common/deadline-exceeded-error';
import { PreconditionFailedError } from '../common/request-errors';
import { McpConnectorService } from '../mcp/mcp-connector.service';
import { ModelEndpointError } from '../models/model-http-call';
import { UNPARSED_TOOL_INPUT } from '../models/sampling-blocks';
import { MODEL_PROVIDER, type ModelProvider } from '../sampling/model-provider';
import { isPermittedTool } from '../tasks/permitted-tools';
import type { PlannerContext } from '../tasks/planner-context';
import type { TaskDefinition } from '../tasks/task-definition';
import type { PlannerCallOptions, PlannerDecision, TaskPlanner } from '../tasks/task-planner';
import { stepsOfModelCall } from './model-call-steps';
import { modelPlanError } from './model-plan-error';
import { DEFAULT_PLANNER_MAX_TOKENS, DEFAULT_PLANNER_MAX_TURNS } from './planner-limits';
import { PlannerConversation, type ModelToolUse } from './planner-conversation';

const FINISH_TOOL: Tool = {
  name: 'finish',
  description: 'Call once the objective is met, or cannot be: summary is your answer to it.',
  inputSchema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
};

const INSTRUCTIONS =
  'You carry out the objective with the tools, one call at a time. Resource tools answer, for every row, only ' +
  'the columns you name in abstract_domains, with a handle; the other columns stay out of this conversation. ' +
  'To act on rows, call a consumer tool with that handle and the rows (row_ids, or where on abstract columns; ' +
  'neither: all rows). A handle serves one consumer call. Call finish when done.';

/**
 * A TaskPlanner that asks a language model (MODEL_PROVIDER) for each next step. The model is
 * shown the objective, the task's S2SP tools as @s2sp/agent shows them to any model (consumer
 * tools take a handle and a choice of rows, not data), and only the control plane of the steps
 * so far. Its answers are checked before anything runs (model-call-steps.ts); the task's
 * deadline, cancellation, max_steps, token_budget, permitted tools and approvals bound it as
 * they bound a declarative plan.
 * @public
 */
@Injectable()
export class ModelPlanner implements TaskPlanner {
  readonly name = 'model';
  readonly needsPlan = false;
  private readonly conversations = new WeakMap<PlannerContext, PlannerConversation>();

  constructor(
    @Inject(MODEL_PROVIDER) private readonly model: ModelProvider,
    private readonly connector: McpConnectorService,
    @Inject(AGENTS_CONFIG) private readonly config: AgentsConfig,
  ) {}

  async next(
    task: TaskDefinition,
    context: PlannerContext,
    options: PlannerCallOptions = {},
  ): Promise<PlannerDecision> {
    let conversation = this.conversations.get(context);
    if (!conversation) {
      conversation = new PlannerConversation();
      this.conversations.set(context, conversation);
    }
    const queued = conversation.pending.shift();
    if (queued) return { type: 'step', step: queued };
    if (conversation.turnCount >= (this.config.plannerMaxTurns ?? DEFAULT_PLANNER_MAX_TURNS))
      throw modelPlanError(`made ${conversation.turnCount} calls without finishing (plannerMaxTurns)`);

    const tools = this.toolsOf(task);
    const answer = await this.ask(task, context, conversation, tools, options.signal);
    const toolUse = this.toolUseOf(answer);
    if (toolUse === undefined) return { type: 'done', summary: textOf(answer) };
    if (toolUse.name === FINISH_TOOL.name) {
      const summary = toolUse.input.summary;
      return { type: 'done', summary: typeof summary === 'string' ? summary : textOf(answer) };
    }
    const tool = tools.find((candidate) => candidate.name === toolUse.name);
    if (!tool) {
      throw modelPlanError(
        `called "${toolUse.name.slice(0, 64)}", which is not one of the task's tools (${[...tools.map((each) => each.name), FINISH_TOOL.name].join(', ')})`,
      );
    }
    if (conversation.repeats(toolUse))
      throw modelPlanError(`called ${tool.name} again with the same arguments (a loop)`);
    const steps = stepsOfModelCall(toolUse, tool, conversation);
    conversation.record(toolUse, steps);
    return { type: 'step', step: conversation.pending.shift() as (typeof steps)[number] };
  }

  /** The S2SP tools the task may use, as a model is shown them. */
  private toolsOf(task: TaskDefinition): S2spModelTool[] {
    const byServer = new Map<string, McpToolDefinition[]>();
    for (const tool of this.connector.registry.all()) {
      if (tool.kind === 'STANDARD' || !isPermittedTool(task.constraints.permittedTools, tool)) continue;
      const definitions = byServer.get(tool.serverId) ?? [];
      definitions.push({
        name: tool.name,
        title: tool.title,
        description: tool.description,
        inputSchema: tool.inputSchema,
      });
      byServer.set(tool.serverId, definitions);
    }
    return s2spModelTools(byServer);
  }

  private async ask(
    task: TaskDefinition,
    context: PlannerContext,
    conversation: PlannerConversation,
    tools: readonly S2spModelTool[],
    signal: AbortSignal | undefined,
  ): Promise<CreateMessageResultWithTools> {
    const remaining = task.deadlineMs === undefined ? undefined : task.deadlineMs - Date.now();
    const deadline = remaining === undefined ? undefined : AbortSignal.timeout(Math.max(remaining, 0));
    const signals = [signal, deadline].filter((each): each is AbortSignal => each !== undefined);
    try {
      return await this.model.createMessage(
        {
          systemPrompt: INSTRUCTIONS,
          messages: conversation.messages(objectiveOf(task), context),
          tools: [
            ...tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              inputSchema: tool.inputSchema as Tool['inputSchema'],
            })),
            FINISH_TOOL,
          ],
          toolChoice: { mode: 'required' },
          maxTokens: this.config.plannerMaxTokens ?? DEFAULT_PLANNER_MAX_TOKENS,
        },
        {
          serverId: 'planner',
          taskId: task.taskId,
          signal: signals.length > 0 ? AbortSignal.any(signals) : new AbortController().signal,
        },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      if (deadline?.aborted)
        throw new DeadlineExceededError('model', 'the deadline passed while the planner waited for its model');
      if (error instanceof ModelEndpointError) {
        throw new PreconditionFailedError(
          `the planner's model cannot be used: ${error.message}`,
          AGENT_EXECUTION_ERROR.EXECUTION_FAILED,
          RECOVERY_HINT.RETRY_WITH_BACKOFF,
        );
      }
      throw error;
    }
  }

  /** The one tool call of the answer, if any. */
  private toolUseOf(answer: CreateMessageResultWithTools): ModelToolUse | undefined {
    const calls = blocksOf(answer).filter((block) => block.type === 'tool_use');
    if (calls.length > 1) throw modelPlanError(`called ${calls.length} tools at once; it runs one step at a time`);
    const [call] = calls;
    if (!call) return undefined;
    const unparsed = call._meta?.[UNPARSED_TOOL_INPUT];
    if (typeof unparsed === 'string')
      throw modelPlanError(
        `wrote arguments for ${call.name.slice(0, 64)} that are not a JSON object: ${unparsed.slice(0, 80)}`,
      );
    return { id: call.id, name: call.name, input: call.input };
  }
}

function blocksOf(answer: CreateMessageResultWithTools) {
  return Array.isArray(answer.content) ? answer.content : [answer.content];
}

function textOf(answer: CreateMessageResultWithTools): string {
  return blocksOf(answer)
    .flatMap((block) => (block.type === 'text' ? [block.text] : []))
    .join('\n');
}

function objectiveOf(task: TaskDefinition): string {
  const { natural_language, goals, success_criteria } = task.objective;
  const lines = [natural_language];
  for (const goal of goals) lines.push(`Goal ${goal.name}: ${goal.description}`);
  if (success_criteria.length > 0) lines.push(`Done when: ${success_criteria.join('; ')}`);
  return lines.join('\n');
}
