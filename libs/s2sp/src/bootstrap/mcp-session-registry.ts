/** One open MCP session as the registry tracks it. */
export interface TrackedSession<T> {
  readonly id: string;
  /** Who opened it (whose cap it counts against): the authenticated subject, or the shared anonymous owner. */
  readonly owner: string;
  readonly value: T;
  lastUsedAt: number;
  /** Requests (and notification streams) still open on it. */
  inFlight: number;
}

/** Why `admit` cannot open one more session for a caller. */
export class SessionLimitError extends Error {
  constructor(readonly maxSessions: number) {
    super(
      `Too many open MCP sessions for this caller (at most ${maxSessions}, all busy). Close one (DELETE /mcp) or wait for one to finish.`,
    );
    this.name = 'SessionLimitError';
  }
}

/**
 * The open MCP sessions, by id (a Map: any id string, `__proto__` or
 * `constructor` included, is just a key), with an idle deadline and a cap per
 * owner. It decides; the caller closes what it hands back.
 */
export class McpSessionRegistry<T> {
  private readonly sessions = new Map<string, TrackedSession<T>>();

  constructor(
    private readonly limits: { sessionIdleTimeoutMs: number; maxSessionsPerCaller: number },
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /**
   * Makes room for one more session of `owner`: returns the sessions to close
   * (its expired ones and, at the cap, its least recently used idle one).
   * Throws SessionLimitError when the owner is at the cap with every session busy.
   */
  admit(owner: string): Array<TrackedSession<T>> {
    const owned = [...this.sessions.values()].filter((session) => session.owner === owner);
    const expired = owned.filter((session) => this.isExpired(session));
    const live = owned.filter((session) => !this.isExpired(session));
    const evicted: Array<TrackedSession<T>> = [];
    if (live.length >= this.limits.maxSessionsPerCaller) {
      const idle = live.filter((session) => session.inFlight === 0).sort((a, b) => a.lastUsedAt - b.lastUsedAt);
      const surplus = live.length - this.limits.maxSessionsPerCaller + 1;
      if (idle.length < surplus) throw new SessionLimitError(this.limits.maxSessionsPerCaller);
      evicted.push(...idle.slice(0, surplus));
    }
    const closing = [...expired, ...evicted];
    for (const session of closing) this.sessions.delete(session.id);
    return closing;
  }

  add(id: string, owner: string, value: T): TrackedSession<T> {
    const session: TrackedSession<T> = { id, owner, value, lastUsedAt: this.now(), inFlight: 0 };
    this.sessions.set(id, session);
    return session;
  }

  /**
   * The live session `id`, or undefined for an unknown or expired one (an
   * expired one is removed and returned in `expired` for closing). Any
   * caller may use a session: the platform's agents keep one per MCP server
   * and send each call with the token of the caller it acts for.
   */
  find(id: string): { session?: TrackedSession<T>; expired?: TrackedSession<T> } {
    const session = this.sessions.get(id);
    if (!session) return {};
    if (this.isExpired(session)) {
      this.sessions.delete(id);
      return { expired: session };
    }
    return { session };
  }

  /** Marks a request as started on `session`; call the returned function when it ends. */
  use(session: TrackedSession<T>): () => void {
    session.inFlight++;
    session.lastUsedAt = this.now();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      session.inFlight--;
      session.lastUsedAt = this.now();
    };
  }

  remove(id: string): TrackedSession<T> | undefined {
    const session = this.sessions.get(id);
    this.sessions.delete(id);
    return session;
  }

  /** Removes and returns every expired session. */
  removeExpired(): Array<TrackedSession<T>> {
    const expired = [...this.sessions.values()].filter((session) => this.isExpired(session));
    for (const session of expired) this.sessions.delete(session.id);
    return expired;
  }

  /** Removes and returns every session. */
  removeAll(): Array<TrackedSession<T>> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    return all;
  }

  /** Idle: nothing open on it, and no request for the idle timeout. */
  private isExpired(session: TrackedSession<T>): boolean {
    return session.inFlight === 0 && this.now() - session.lastUsedAt >= this.limits.sessionIdleTimeoutMs;
  }
}
