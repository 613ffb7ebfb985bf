import type { CreateMessageRequest } from '@modelcontextprotocol/client';
import type { PlannerContext } from '../tasks/planner-context';
import type { PlanStep } from '../tasks/task-definition';

type SamplingMessage = CreateMessageRequest['params']['messages'][number];

/** A tool the planner's model called. */
export interface ModelToolUse {
  id: string;
  name: string;
  input: Record<string, unknown>;
}

/** What the planner remembers of a resource call, under the handle the model knows it by (its step id). */
export interface PlannedResource {
  tool: string;
  abstractDomains: readonly string[];
  /** Handed to a consumer already: its resource_url serves once. */
  spent: boolean;
}

/**
 * The planner's exchange with its model for one task run: each tool call the model made, the
 * steps it became (a filter may come before a consumer call), and the resource calls by handle.
 * The messages are rebuilt from the PlannerContext each time, so the model reads exactly the
 * control plane the runtime admitted: abstract rows and consumer answers, never a body value nor
 * a resource_url.
 */
export class PlannerConversation {
  readonly pending: PlanStep[] = [];
  private readonly turns: Array<{ toolUse: ModelToolUse; answeredBy: string }> = [];
  private readonly resources = new Map<string, PlannedResource>();
  private readonly callsMade = new Set<string>();
  private steps = 0;

  get turnCount(): number {
    return this.turns.length;
  }

  newStepId(): string {
    this.steps += 1;
    return `model-${this.steps}`;
  }

  /** Whether the model made exactly this call before (a loop). */
  repeats(toolUse: ModelToolUse): boolean {
    return this.callsMade.has(callKey(toolUse));
  }

  /** The model's call became these steps; the last one's output answers it. */
  record(toolUse: ModelToolUse, steps: PlanStep[]): void {
    this.callsMade.add(callKey(toolUse));
    this.turns.push({ toolUse, answeredBy: steps[steps.length - 1].stepId });
    this.pending.push(...steps);
    for (const step of steps) {
      if (step.kind === 'resource_call')
        this.resources.set(step.stepId, { tool: step.tool, abstractDomains: step.abstractDomains, spent: false });
    }
  }

  resource(handle: string): PlannedResource | undefined {
    return this.resources.get(handle);
  }

  /** The objective, then each call the model made with the control plane it produced. */
  messages(objective: string, context: PlannerContext): SamplingMessage[] {
    const messages: SamplingMessage[] = [{ role: 'user', content: { type: 'text', text: objective } }];
    for (const { toolUse, answeredBy } of this.turns) {
      const text = this.answerText(answeredBy, context);
      if (text === undefined) break;
      messages.push({ role: 'assistant', content: { type: 'tool_use', ...toolUse } });
      messages.push({
        role: 'user',
        content: { type: 'tool_result', toolUseId: toolUse.id, content: [{ type: 'text', text }] },
      });
    }
    return messages;
  }

  private answerText(stepId: string, context: PlannerContext): string | undefined {
    const entry = context.admitted.find((admitted) => admitted.stepId === stepId);
    if (!entry) return undefined;
    if (entry.source !== 'resource-abstract') return entry.text;
    const answer = JSON.parse(entry.text) as Record<string, unknown>;
    return JSON.stringify({
      handle: stepId,
      total_rows: answer.total_rows,
      abstract_domains: answer.abstract_domains,
      body_domains: answer.body_domains,
      abstract: answer.abstract,
    });
  }
}

function callKey(toolUse: ModelToolUse): string {
  return `${toolUse.name} ${JSON.stringify(toolUse.input)}`;
}
