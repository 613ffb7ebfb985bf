import { randomBytes } from 'node:crypto';
import { ROW_ID, type Row } from '@s2sp/protocol';
import type { S2spResourceAnswer } from './resource-answer';

/**
 * What the session keeps of one resource answer behind its handle: the `resource_url` (async)
 * or the body rows (sync), with the abstract rows the model chose from.
 * @public
 */
export interface BufferedResource {
  readonly handle: string;
  readonly serverId: string;
  readonly tool: string;
  readonly mode: 'async' | 'sync';
  readonly totalRows: number;
  readonly abstractDomains: readonly string[];
  readonly bodyDomains: readonly string[];
  readonly abstract: readonly Row[];
  /** Epoch ms after which the handle is refused. */
  readonly expiresAt: number;
}

interface Entry extends BufferedResource {
  resourceUrl?: string;
  body?: Map<number, Row>;
  state: 'live' | 'spent' | 'evicted';
}

/**
 * A handle that cannot be used (unknown, spent, dropped or expired); the message is written for the model.
 * @public
 */
export class HandleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HandleError';
  }
}

/**
 * The data plane's side of one handed-over resource: the resource_url (async) or the chosen body rows (sync).
 * @public
 */
export type BufferedBody = { mode: 'async'; resourceUrl: string } | { mode: 'sync'; body: Row[] };

/**
 * How long handles last and how many a buffer keeps.
 * @public
 */
export interface DataBufferLimits {
  ttlMs: number;
  maxHandles: number;
  /**
   * A sync handle's buffered body may serve several consumers (default false: once, like an async
   * handle, whose resource_url the resource server serves once). The agents' declarative plans may
   * hand one sync resource to several consumer steps.
   */
  reuseSyncBodies?: boolean;
}

/** Spent and evicted handles are remembered (for a clear error) up to this many times maxHandles. */
const REMEMBERED_FACTOR = 4;

/**
 * The data buffer of one agent session: each resource answer's body or `resource_url` under a
 * short opaque handle, which the model passes to a consumer instead of the data. A handle is
 * single-use (like the URL behind it), expires, and exists only in the buffer that received it.
 * S2spAgentSession keeps one per conversation; the agents' task runtime, one per task.
 * @public
 */
export class DataBuffer {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly limits: DataBufferLimits,
    private readonly now: () => number = Date.now,
  ) {}

  keep(answer: S2spResourceAnswer, source: { serverId: string; tool: string }): BufferedResource {
    this.forgetExpired();
    const entry: Entry = {
      handle: this.newHandle(),
      serverId: source.serverId,
      tool: source.tool,
      mode: answer.resourceUrl !== undefined ? 'async' : 'sync',
      totalRows: answer.totalRows,
      abstractDomains: answer.abstractDomains,
      bodyDomains: answer.bodyDomains,
      abstract: answer.abstract,
      expiresAt: this.now() + this.limits.ttlMs,
      resourceUrl: answer.resourceUrl,
      body: answer.body && new Map(answer.body.map((row) => [row[ROW_ID] as number, row])),
      state: 'live',
    };
    this.entries.set(entry.handle, entry);
    this.evictBeyondLimit();
    return entry;
  }

  /** The live resource behind a handle; a HandleError when it is unknown, spent, evicted or expired. */
  get(handle: string): BufferedResource {
    return this.live(handle);
  }

  /** Spends the handle and hands over the body of these rows (sync) or the resource_url (async). */
  spend(handle: string, rows: readonly Row[]): BufferedBody {
    const entry = this.live(handle);
    let handedOver: BufferedBody;
    if (entry.resourceUrl !== undefined) {
      handedOver = { mode: 'async', resourceUrl: entry.resourceUrl };
    } else {
      const buffered = entry.body ?? new Map<number, Row>();
      const missing = rows.map((row) => row[ROW_ID] as number).filter((id) => !buffered.has(id));
      if (missing.length > 0) {
        throw new HandleError(
          `The answer behind handle "${handle}" held no body for rows ${missing.slice(0, 10).join(', ')}: call ${entry.tool} again.`,
        );
      }
      handedOver = { mode: 'sync', body: rows.map((row) => buffered.get(row[ROW_ID] as number) as Row) };
    }
    if (handedOver.mode === 'sync' && this.limits.reuseSyncBodies === true) return handedOver;
    entry.state = 'spent';
    entry.resourceUrl = undefined;
    entry.body = undefined;
    return handedOver;
  }

  /** Drops everything (the session ended). */
  clear(): void {
    this.entries.clear();
  }

  private live(handle: string): Entry {
    const entry = this.entries.get(handle);
    if (!entry) {
      throw new HandleError(
        `Unknown handle "${handle}": pass a handle that a resource tool answered in this conversation.`,
      );
    }
    if (entry.state === 'spent') {
      throw new HandleError(
        `Handle "${handle}" was already handed to a consumer tool, and a handle serves once: call ${entry.tool} again for a new one.`,
      );
    }
    if (entry.state === 'evicted') {
      throw new HandleError(
        `Handle "${handle}" was dropped: a conversation keeps at most ${this.limits.maxHandles} handles. Call ${entry.tool} again.`,
      );
    }
    if (this.now() >= entry.expiresAt) {
      throw new HandleError(
        `Handle "${handle}" expired (handles last ${Math.round(this.limits.ttlMs / 1000)} s): call ${entry.tool} again.`,
      );
    }
    return entry;
  }

  private newHandle(): string {
    for (;;) {
      const handle = `rs_${randomBytes(5).toString('hex')}`;
      if (!this.entries.has(handle)) return handle;
    }
  }

  private evictBeyondLimit(): void {
    const live = [...this.entries.values()].filter((entry) => entry.state === 'live');
    for (const entry of live.slice(0, Math.max(0, live.length - this.limits.maxHandles))) {
      entry.state = 'evicted';
      entry.resourceUrl = undefined;
      entry.body = undefined;
    }
    const remembered = this.limits.maxHandles * REMEMBERED_FACTOR;
    for (const [handle, entry] of this.entries) {
      if (this.entries.size <= remembered) break;
      if (entry.state !== 'live') this.entries.delete(handle);
    }
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [handle, entry] of this.entries) if (now >= entry.expiresAt) this.entries.delete(handle);
  }
}
