import { type Row } from '@s2sp/core';
import { countTokens } from '@s2sp/core/internal';

/**
 * Where a piece of text that entered the planner's context came from.
 * @public
 */
export type ContextSource = 'resource-abstract' | 'consumer-result';

/**
 * One admission into the planner's context: the exact text and its token count (o200k_base).
 * @public
 */
export interface ContextEntry {
  stepId: string;
  source: ContextSource;
  text: string;
  tokens: number;
}

/**
 * The planner's context window, i.e. what a model driving the task would
 * read: the control plane only. Every admission is recorded with its text
 * and tokens, so "tokens in context" is measured, not estimated. Body rows
 * never enter it (they stay on the data plane or in the runtime's
 * TaskWorkspace). Per step it also keeps the rows the planner reasons over
 * (abstract rows of a resource call, the selection of a filter).
 * @public
 */
export class PlannerContext {
  private readonly entries: ContextEntry[] = [];
  private readonly rows = new Map<string, Row[]>();
  private readonly completed = new Set<string>();
  private total = 0;

  /** Admits text into the context and returns the entry (with its token count). */
  admit(stepId: string, source: ContextSource, text: string): ContextEntry {
    const entry: ContextEntry = { stepId, source, text, tokens: countTokens(text) };
    this.entries.push(entry);
    this.total += entry.tokens;
    return entry;
  }

  /** Tokens of everything admitted so far. */
  get tokens(): number {
    return this.total;
  }

  get admitted(): readonly ContextEntry[] {
    return this.entries;
  }

  /** Records the control-plane rows a step produced (abstract rows or a filtered selection of them). */
  recordRows(stepId: string, rows: Row[]): void {
    this.rows.set(stepId, rows);
  }

  rowsOf(stepId: string): Row[] | undefined {
    return this.rows.get(stepId);
  }

  markCompleted(stepId: string): void {
    this.completed.add(stepId);
  }

  hasCompleted(stepId: string): boolean {
    return this.completed.has(stepId);
  }
}
