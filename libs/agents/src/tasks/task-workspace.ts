import { DataBuffer, type BufferedBody, type S2spResourceAnswer } from '@s2sp/agent';
import type { Row } from '@s2sp/core';

/** What the runtime knows of a resource call for later consumers (never shown to the planner). */
export interface ResourceHandle {
  stepId: string;
  mode: 'async' | 'sync';
  /** Rows the resource holds: a consumer handed all of them fetches without naming row ids. */
  totalRows: number;
  /** Scopes of the resource tool that issued it: what the data-plane fetch of its resource_url requires. */
  sourceScopes: readonly string[];
}

/** How long a task's buffered resources can be handed over: longer than any task is allowed to run. */
const TASK_BUFFER_TTL_MS = 24 * 60 * 60 * 1000;
/** Resource calls one task may keep for its consumers. */
const MAX_TASK_RESOURCES = 256;

/**
 * The runtime's private side of a task: each resource call's resource_url (async) or body rows
 * (sync) in @s2sp/agent's DataBuffer, as an agent built on any framework keeps them, by step. A
 * resource_url is handed to one consumer (the resource server serves it once); a buffered body
 * may serve several consumer steps. Nothing here enters the PlannerContext, is streamed or is stored.
 */
export class TaskWorkspace {
  private readonly buffer = new DataBuffer({
    ttlMs: TASK_BUFFER_TTL_MS,
    maxHandles: MAX_TASK_RESOURCES,
    reuseSyncBodies: true,
  });
  private readonly steps = new Map<string, { handle: string; sourceScopes: readonly string[] }>();

  keep(
    stepId: string,
    answer: S2spResourceAnswer,
    source: { serverId: string; tool: string; scopes: readonly string[] },
  ): void {
    const kept = this.buffer.keep(answer, { serverId: source.serverId, tool: source.tool });
    this.steps.set(stepId, { handle: kept.handle, sourceScopes: source.scopes });
  }

  /** The resource a step kept; undefined for a step that kept none, a HandleError once it was handed over. */
  handle(stepId: string): ResourceHandle | undefined {
    const step = this.steps.get(stepId);
    if (!step) return undefined;
    const resource = this.buffer.get(step.handle);
    return { stepId, mode: resource.mode, totalRows: resource.totalRows, sourceScopes: step.sourceScopes };
  }

  /** Hands the resource of a step to a consumer: its resource_url (once), or the body of these rows. */
  handOver(stepId: string, rows: readonly Row[]): BufferedBody {
    const step = this.steps.get(stepId);
    if (!step) throw new Error(`step "${stepId}" kept no resource`);
    return this.buffer.spend(step.handle, rows);
  }

  /** Frees the buffers (the task ended). */
  clear(): void {
    this.buffer.clear();
    this.steps.clear();
  }
}
