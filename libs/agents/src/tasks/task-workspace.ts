import { type Row } from '@s2sp/core';
import { ROW_ID } from '@s2sp/core/internal';
import type { S2spResourceAnswer } from '@s2sp/agent';

/** What the runtime keeps of a resource call for later consumers (never shown to the planner). */
export interface ResourceHandle {
  stepId: string;
  mode: 'async' | 'sync';
  /** Async: the capability the consumer fetches with. */
  resourceUrl?: string;
  /** Rows the resource holds: a consumer handed all of them fetches without naming row ids. */
  totalRows: number;
  /** Scopes of the resource tool that issued it: what the data-plane fetch of its resource_url requires. */
  sourceScopes: readonly string[];
}

/**
 * The runtime's private side of a task: resource handles and, for sync-mode
 * resource calls, the body rows buffered in memory so a consumer can get
 * them as body_data. Nothing here enters the PlannerContext, is streamed or
 * is stored.
 */
export class TaskWorkspace {
  private readonly handles = new Map<string, ResourceHandle>();
  private readonly bodies = new Map<string, Map<number, Row>>();

  keep(stepId: string, answer: S2spResourceAnswer, sourceScopes: readonly string[]): void {
    this.handles.set(stepId, {
      stepId,
      mode: answer.resourceUrl !== undefined ? 'async' : 'sync',
      resourceUrl: answer.resourceUrl,
      totalRows: answer.totalRows,
      sourceScopes,
    });
    if (answer.body !== undefined) {
      this.bodies.set(stepId, new Map(answer.body.map((row) => [row[ROW_ID] as number, row])));
    }
  }

  handle(stepId: string): ResourceHandle | undefined {
    return this.handles.get(stepId);
  }

  /** The buffered body rows for these abstract rows, in their order; missing ids are reported. */
  bodyFor(stepId: string, rows: readonly Row[]): { body: Row[]; missing: number[] } {
    const buffer = this.bodies.get(stepId) ?? new Map<number, Row>();
    const body: Row[] = [];
    const missing: number[] = [];
    for (const row of rows) {
      const id = row[ROW_ID] as number;
      const bodyRow = buffer.get(id);
      if (bodyRow) body.push(bodyRow);
      else missing.push(id);
    }
    return { body, missing };
  }

  /** Frees the buffers (the task ended). */
  clear(): void {
    this.handles.clear();
    this.bodies.clear();
  }
}
