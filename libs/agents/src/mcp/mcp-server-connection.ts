import type { LoggerService } from '@nestjs/common';
import {
  Client,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  StreamableHTTPClientTransport,
  type ClientCapabilities,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestParams,
  type ElicitResult,
  type ListRootsResult,
  type RequestOptions,
  type Tool,
} from '@modelcontextprotocol/client';
import {
  CircuitBreaker,
  CircuitOpenError,
  timeoutCountsAgainstDownstream,
  type CircuitBreakerOptions,
  type CircuitSnapshot,
} from '@s2sp/platform/internal';
import { S2SP_META } from '@s2sp/core';
import { tracePropagatingFetch } from '@s2sp/telemetry';
import { abortable } from '../common/abort';
import { describeError, redactUrl } from '../common/redact';
import type { McpServerEndpoint } from '../config/mcp-server-list';
import { CoalescedRefresh } from './coalesced-refresh';
import { listAllTools } from './list-all-tools';
import { listServerSurfaces } from './list-server-surfaces';
import type { ServerSurfaces } from './server-surfaces';
import { isBreakerFailure, translateMcpFailure } from './mcp-failure';
import { DeadlineExceededError } from '../common/deadline-exceeded-error';
import type { RegisteredTool } from './registered-tool';
import { classifyMutation, classifyToolKind } from './tool-classification';
import { credentialedFetch, withoutCallerAuthorization } from './mcp-call-credentials';
import { requestScopedSignalFetch } from './request-scoped-signal-fetch';
import { McpServerUnavailableError } from './tool-call-errors';
import type { OutputSchemaValidators } from './output-schema-validators';
import type { McpProtocolMode } from './mcp-protocol-mode';

export interface McpServerConnectionOptions {
  endpoint: McpServerEndpoint;
  /** The breaker's options; `minimumBudgetMs`: see AgentsBreakerConfig. */
  breaker: Omit<CircuitBreakerOptions, 'now'> & { minimumBudgetMs: number };
  connectTimeoutMs: number;
  callTimeoutMs: number;
  /** 0 disables background reconnection (a failed server is then retried on next use only). */
  reconnectInitialDelayMs: number;
  reconnectMaxDelayMs: number;
  clientInfo: { name: string; version: string };
  /**
   * The Authorization header for requests made outside a caller's tool call
   * (connect, discovery, the notification stream); undefined sends none.
   */
  connectionAuthorization?: () => Promise<string | undefined>;
  /** Answers the server's `sampling/createMessage` and `roots/list` requests (and `elicitation/create`, when given). */
  clientRequests: McpClientRequestHandlers;
  /**
   * Which protocol era to speak: `'auto'` asks the server with `server/discover`
   * and speaks 2026-07-28 when it can, else 2025-11-25 over `initialize`;
   * `'legacy'` always initializes (see AgentsMcpConfig.protocol).
   */
  protocol: McpProtocolMode;
  /** The clients' JSON Schema validator, shared by the connections of a process (see OutputSchemaValidators). */
  outputValidators: OutputSchemaValidators;
  /** Called with the server's full tool list after every successful discovery. */
  onTools(serverId: string, tools: RegisteredTool[]): void;
  /** Called with the server's resources, resource templates and prompts after every successful discovery. */
  onSurfaces(serverId: string, surfaces: ServerSurfaces): void;
  logger: LoggerService;
}

/** What the agents answer when an MCP server asks something of them. */
export interface McpClientRequestHandlers {
  createMessage(
    serverId: string,
    params: CreateMessageRequestParams,
    signal: AbortSignal,
  ): Promise<CreateMessageResult>;
  listRoots(serverId: string): ListRootsResult;
  /** Answers a server's form elicitation; without it the client declares no elicitation capability. */
  elicit?(serverId: string, params: ElicitRequestParams, signal: AbortSignal): Promise<ElicitResult>;
}

/** What one MCP request may use: its timeout and the caller's cancellation. */
export interface McpCallBudget {
  timeoutMs: number;
  signal?: AbortSignal;
}

const MAX_TOOL_NAME_LENGTH = 256;

/**
 * One MCP server: the official client over Streamable HTTP, its tools, and
 * the circuit breaker that every request to it goes through. A server that
 * is down is never fatal: requests fail with McpServerUnavailableError, the
 * connection is retried on next use and (unless disabled) in the background
 * with exponential backoff, and a server that lost our session (restart) is
 * reconnected transparently.
 */
export class McpServerConnection {
  readonly id: string;
  /** The endpoint without credentials or query: safe to show and log. */
  readonly displayUrl: string;
  private readonly breaker: CircuitBreaker;
  private client: Client | undefined;
  private connecting: Promise<Client> | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private reconnectDelayMs: number;
  private readonly toolsRefresh = new CoalescedRefresh(
    () => this.refreshTools(),
    () => this.closed,
  );
  private readonly surfacesRefresh = new CoalescedRefresh(
    () => this.refreshSurfaces(),
    () => this.closed,
  );
  private closed = false;
  private lastErrorText: string | undefined;
  private toolsRefreshedAt: Date | undefined;
  private toolCount = 0;

  constructor(private readonly options: McpServerConnectionOptions) {
    this.id = options.endpoint.id;
    this.displayUrl = redactUrl(options.endpoint.url);
    this.breaker = new CircuitBreaker(`MCP server "${this.id}"`, options.breaker);
    this.reconnectDelayMs = options.reconnectInitialDelayMs;
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  status(): {
    connected: boolean;
    circuit: CircuitSnapshot;
    toolCount: number;
    lastError?: string;
    toolsRefreshedAt?: Date;
  } {
    return {
      connected: this.connected,
      circuit: this.breaker.snapshot(),
      toolCount: this.toolCount,
      lastError: this.lastErrorText,
      toolsRefreshedAt: this.toolsRefreshedAt,
    };
  }

  /** First connection attempt at start. Never throws: a server that is down is retried later. */
  async start(): Promise<void> {
    try {
      await this.ensureConnected({ timeoutMs: this.options.connectTimeoutMs });
      this.options.logger.log(`Connected to MCP server "${this.id}" at ${this.displayUrl} (${this.toolCount} tools)`);
    } catch (error) {
      this.options.logger.warn(
        `Could not connect to ${this.displayUrl} at start (${describeError(error)}); will retry`,
      );
    }
  }

  /** Connects (through the breaker) unless connected; throws McpServerUnavailableError / DeadlineExceededError. */
  async ensureConnected(budget: McpCallBudget): Promise<void> {
    if (this.client) return;
    await this.request(async () => undefined, budget);
  }

  /**
   * Runs one MCP request through the circuit breaker, connecting first when
   * needed. Errors come out translated (see mcp-failure.ts); only transport
   * failures and timeouts count against the breaker, never tool errors,
   * refusals by the server or cancellations; a timeout only when the budget
   * was at least `breaker.minimumBudgetMs` (a caller's short deadline is its own).
   */
  async request<T>(
    operation: (client: Client, options: RequestOptions) => Promise<T>,
    budget: McpCallBudget,
  ): Promise<T> {
    if (this.closed)
      throw new McpServerUnavailableError(this.id, `MCP server "${this.id}": the agents are shutting down`);
    const startedAt = Date.now();
    const remaining = () => Math.max(1, startedAt + budget.timeoutMs - Date.now());
    const context = { serverId: this.id, signal: budget.signal, startedAt, timeoutMs: budget.timeoutMs };
    // A timeout of a budget too short to judge the server by is left out of its breaker's window.
    const countsAgainstServer = (error: unknown): boolean | undefined =>
      error instanceof DeadlineExceededError && !this.judgesTimeoutOf(budget) ? undefined : isBreakerFailure(error);
    try {
      const result = await this.breaker.run(async () => {
        try {
          return await this.attempt(operation, remaining, budget.signal);
        } catch (error) {
          throw translateMcpFailure(error, context);
        }
      }, countsAgainstServer);
      this.lastErrorText = undefined;
      return result;
    } catch (error) {
      if (error instanceof CircuitOpenError) {
        throw new McpServerUnavailableError(
          this.id,
          `MCP server "${this.id}" is unavailable (circuit open after repeated failures); retry in ${Math.max(1, Math.ceil(error.retryAfterMs / 1000))} s`,
          error.retryAfterMs,
        );
      }
      if (countsAgainstServer(error) === true) {
        this.lastErrorText = (error as Error).message;
        this.scheduleReconnect();
      }
      throw error;
    }
  }

  private judgesTimeoutOf(budget: McpCallBudget): boolean {
    return timeoutCountsAgainstDownstream(budget.timeoutMs, this.options.breaker.minimumBudgetMs);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  private async attempt<T>(
    operation: (client: Client, options: RequestOptions) => Promise<T>,
    remaining: () => number,
    signal: AbortSignal | undefined,
  ): Promise<T> {
    let client = await abortable(this.connectedClient(remaining()), signal);
    try {
      return await operation(client, { timeout: remaining(), signal });
    } catch (error) {
      if (signal?.aborted || !isSessionLost(error)) {
        if (!signal?.aborted && isConnectionBroken(error)) this.discard(client);
        throw error;
      }
      // The server no longer knows our session (it restarted): nothing ran; reconnect and send once more.
      this.discard(client);
      client = await abortable(this.connectedClient(remaining()), signal);
      return await operation(client, { timeout: remaining(), signal });
    }
  }

  private connectedClient(timeoutMs: number): Promise<Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= withoutCallerAuthorization(() =>
      this.connect(Math.min(timeoutMs, this.options.connectTimeoutMs)),
    ).finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async connect(timeoutMs: number): Promise<Client> {
    const handlers = this.options.clientRequests;
    const refreshTools = () => {
      if (this.client === client) this.toolsRefresh.request();
    };
    const refreshSurfaces = () => {
      if (this.client === client) this.surfacesRefresh.request();
    };
    // On a 2025-era session list changes arrive as notifications; on 2026-07-28 the client
    // opens a subscriptions/listen stream for them. Either way we re-read the lists ourselves.
    const onChange = (refresh: () => void) => ({ autoRefresh: false, debounceMs: 0, onChanged: refresh });
    const client = new Client(this.options.clientInfo, {
      capabilities: clientCapabilities(handlers),
      versionNegotiation: { mode: this.options.protocol },
      jsonSchemaValidator: this.options.outputValidators,
      listChanged: {
        tools: onChange(refreshTools),
        resources: onChange(refreshSurfaces),
        prompts: onChange(refreshSurfaces),
      },
    });
    const fallback = this.options.connectionAuthorization ?? (async () => undefined);
    const transport = new StreamableHTTPClientTransport(new URL(this.options.endpoint.url), {
      fetch: credentialedFetch(fallback, requestScopedSignalFetch(tracePropagatingFetch())),
    });
    client.onerror = (error) => {
      // Transport-level trouble (e.g. the notification stream dropped); requests report their own failures.
      if (this.client === client) this.lastErrorText = describeError(error);
    };
    client.onclose = () => {
      if (this.client === client) this.client = undefined;
    };
    // Sampling and roots are always declared: the sampling policy, not the capability, decides who may sample.
    client.setRequestHandler('sampling/createMessage', (request, context) =>
      handlers.createMessage(this.id, request.params, context.mcpReq.signal),
    );
    client.setRequestHandler('roots/list', () => handlers.listRoots(this.id));
    const { elicit } = handlers;
    if (elicit) {
      client.setRequestHandler('elicitation/create', (request, context) =>
        elicit(this.id, request.params, context.mcpReq.signal),
      );
    }
    try {
      await client.connect(transport, { timeout: timeoutMs });
      const tools = await listAllTools(client, { timeout: timeoutMs });
      const surfaces = await listServerSurfaces(this.id, client, { timeout: timeoutMs });
      if (this.closed)
        throw new McpServerUnavailableError(this.id, `MCP server "${this.id}": the agents are shutting down`);
      this.client = client;
      this.reconnectDelayMs = this.options.reconnectInitialDelayMs;
      this.options.outputValidators.precompile(tools);
      this.publishTools(tools, client);
      this.options.onSurfaces(this.id, surfaces);
      return client;
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
  }

  /** Re-reads the tool list (after notifications/tools/list_changed). */
  private async refreshTools(): Promise<void> {
    try {
      const tools = await this.request((client, options) => listAllTools(client, options), {
        timeoutMs: this.options.callTimeoutMs,
      });
      this.options.outputValidators.precompile(tools);
      if (this.client) this.publishTools(tools, this.client);
    } catch (error) {
      this.options.logger.warn(`Refreshing the tools of MCP server "${this.id}" failed: ${describeError(error)}`);
    }
  }

  /** Re-reads the resources, resource templates and prompts (after their list_changed notifications). */
  private async refreshSurfaces(): Promise<void> {
    try {
      const surfaces = await this.request((client, options) => listServerSurfaces(this.id, client, options), {
        timeoutMs: this.options.callTimeoutMs,
      });
      this.options.onSurfaces(this.id, surfaces);
    } catch (error) {
      this.options.logger.warn(
        `Refreshing the resources and prompts of MCP server "${this.id}" failed: ${describeError(error)}`,
      );
    }
  }

  private publishTools(tools: readonly Tool[], client: Client): void {
    const version = client.getServerVersion()?.version ?? '';
    const seen = new Set<string>();
    const registered: RegisteredTool[] = [];
    for (const tool of tools) {
      if (
        typeof tool.name !== 'string' ||
        tool.name === '' ||
        tool.name.length > MAX_TOOL_NAME_LENGTH ||
        seen.has(tool.name)
      ) {
        this.options.logger.warn(`MCP server "${this.id}" listed a tool with an invalid or duplicate name; ignored`);
        continue;
      }
      seen.add(tool.name);
      registered.push({
        serverId: this.id,
        name: tool.name,
        title: tool.title ?? tool.annotations?.title,
        description: tool.description ?? '',
        inputSchema: toJsonObject(tool.inputSchema),
        outputSchema: tool.outputSchema ? toJsonObject(tool.outputSchema) : undefined,
        kind: classifyToolKind(tool.inputSchema),
        mutationClass: classifyMutation(tool.annotations),
        scopes: declaredScopes(tool._meta),
        version,
      });
    }
    this.toolCount = registered.length;
    this.toolsRefreshedAt = new Date();
    this.options.onTools(this.id, registered);
  }

  private discard(client: Client): void {
    if (this.client === client) this.client = undefined;
    void client.close().catch(() => undefined);
  }

  /** Background reconnection with exponential backoff (off when reconnectInitialDelayMs is 0). */
  private scheduleReconnect(): void {
    if (this.closed || this.client || this.reconnectTimer || this.options.reconnectInitialDelayMs <= 0) return;
    const circuit = this.breaker.snapshot();
    const delay = Math.max(this.reconnectDelayMs, circuit.retryAfterMs);
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      if (this.closed || this.client) return;
      this.reconnectDelayMs = Math.min(this.reconnectDelayMs * 2, this.options.reconnectMaxDelayMs);
      this.ensureConnected({ timeoutMs: this.options.connectTimeoutMs }).then(
        () => this.options.logger.log(`Reconnected to MCP server "${this.id}" (${this.toolCount} tools)`),
        () => this.scheduleReconnect(),
      );
    }, delay);
    this.reconnectTimer.unref();
  }
}

/** The server answered 404 for our session id: it restarted or expired the session. */
function isSessionLost(error: unknown): boolean {
  return httpStatusOf(error) === 404;
}

/** Errors after which the client object is no longer worth keeping. */
function isConnectionBroken(error: unknown): boolean {
  const status = httpStatusOf(error);
  if (status !== undefined) return status === 404 || status >= 500;
  if (error instanceof SdkError) return error.code === SdkErrorCode.ConnectionClosed;
  return error instanceof TypeError; // fetch failed: refused, reset, DNS
}

function httpStatusOf(error: unknown): number | undefined {
  return error instanceof SdkHttpError ? error.status : undefined;
}

function clientCapabilities(handlers: McpClientRequestHandlers): ClientCapabilities {
  return {
    sampling: {},
    roots: { listChanged: false },
    ...(handlers.elicit ? { elicitation: { form: {} } } : {}),
  };
}

function toJsonObject(value: unknown): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value ?? {})) as Record<string, unknown>;
}

const MAX_DECLARED_SCOPES = 32;
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;

/** `_meta["s2sp/scopes"]` of a tool: valid scope tokens only, bounded; anything else declares nothing. */
function declaredScopes(meta: unknown): string[] {
  const value = (meta as Record<string, unknown> | undefined)?.[S2SP_META.SCOPES];
  if (!Array.isArray(value)) return [];
  return [
    ...new Set(value.filter((scope): scope is string => typeof scope === 'string' && SCOPE_TOKEN.test(scope))),
  ].slice(0, MAX_DECLARED_SCOPES);
}
