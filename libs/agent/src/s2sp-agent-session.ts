import { countTokens, S2SP_META } from '@s2sp/protocol';
import { ResourceUrlRedactor } from './resource-url-redactor';
import { DataBuffer, HandleError } from './data-buffer';
import { McpServerClient, type McpClientLike, type McpToolDefinition } from './mcp-client';
import { contentBlocksOf, isObject, type McpToolResult } from './mcp-tool-result';
import { s2spModelTools, type S2spModelTool } from './model-tools';
import { readS2spResourceAnswer } from './resource-answer';
import { chooseRows, RowChoiceError } from './row-selection';
import { type S2spCallUsage, type S2spSessionUsage, UsageLedger } from './usage';

/**
 * Options of {@link S2spAgentSession.open}.
 * @public
 */
export interface S2spAgentSessionOptions {
  /** The MCP servers by id: connected clients of the official SDK, v1 or v2. */
  servers: Record<string, McpClientLike>;
  /**
   * Where a resource answer's body goes. `async` (default): it stays cached on the resource server
   * behind a single-use `resource_url`, which the session hands to the consumer; `sync`: it comes
   * inline and the session buffers it until a consumer takes it.
   */
  mode?: 'async' | 'sync';
  /** How long a handle can be used, in ms (default 600000: the resource servers' default resource lifetime). */
  handleTtlMs?: number;
  /** Handles a session keeps at once (default 64); beyond, the oldest is dropped. */
  maxHandles?: number;
  /** Count the tokens (o200k_base) that entered and stayed out of the model's context (default true). */
  countTokens?: boolean;
}

/**
 * What a tool call gives back to the model: text only (never a body value nor a `resource_url`),
 * and whether it is an error the model should read and recover from.
 * @public
 */
export interface S2spToolOutput {
  readonly text: string;
  readonly isError: boolean;
  readonly usage: S2spCallUsage;
}

/**
 * A content block of a tool answer that is not text (an image, an audio clip, an embedded
 * resource): kept for the application, named to the model as `artifact <index>`.
 * @public
 */
export interface S2spArtifact {
  readonly index: number;
  readonly tool: string;
  readonly serverId: string;
  readonly block: Readonly<Record<string, unknown>>;
}

const DEFAULT_HANDLE_TTL_MS = 10 * 60 * 1000;
const DEFAULT_MAX_HANDLES = 64;
/** Resource URLs redacted at most, per handle the session keeps: the URLs of spent and dropped handles too. */
const REDACTED_URLS_PER_HANDLE = 4;

/**
 * The agent's S2SP layer for one conversation, under any agent framework: it shows the model
 * each server's tools (S2SP consumer tools take a handle and a choice of rows instead of data),
 * keeps every resource answer's body or `resource_url` in its data buffer under a short opaque
 * handle, answers the model with the abstract rows and the handle only, and fills in the data
 * when the model hands the handle to a consumer. Framework adapters: `@s2sp/agent/ai-sdk`,
 * `@s2sp/agent/langchain`, `@s2sp/agent/openai-agents`.
 * @public
 */
export class S2spAgentSession {
  private readonly buffer: DataBuffer;
  private readonly ledger = new UsageLedger();
  private readonly artifactList: S2spArtifact[] = [];
  /** The resource_urls this session received: redacted from any text the model is shown. */
  private readonly resourceUrls: ResourceUrlRedactor;
  private modelTools: S2spModelTool[] = [];

  private constructor(
    private readonly servers: ReadonlyMap<string, McpServerClient>,
    private readonly options: Required<Omit<S2spAgentSessionOptions, 'servers'>>,
  ) {
    this.buffer = new DataBuffer({ ttlMs: options.handleTtlMs, maxHandles: options.maxHandles });
    this.resourceUrls = new ResourceUrlRedactor({
      keepMs: options.handleTtlMs,
      maxUrls: options.maxHandles * REDACTED_URLS_PER_HANDLE,
    });
  }

  /** Lists the tools of every server and returns the session. */
  static async open(options: S2spAgentSessionOptions): Promise<S2spAgentSession> {
    const servers = new Map(
      Object.entries(options.servers).map(([id, client]) => [id, new McpServerClient(id, client)] as const),
    );
    if (servers.size === 0) throw new Error('S2spAgentSession needs at least one MCP server');
    const session = new S2spAgentSession(servers, {
      mode: choice('mode', options.mode ?? 'async', ['async', 'sync']),
      handleTtlMs: positiveInteger('handleTtlMs', options.handleTtlMs ?? DEFAULT_HANDLE_TTL_MS),
      maxHandles: positiveInteger('maxHandles', options.maxHandles ?? DEFAULT_MAX_HANDLES),
      countTokens: options.countTokens ?? true,
    });
    await session.refreshTools();
    return session;
  }

  /** The tools as the model is shown them. */
  get tools(): readonly S2spModelTool[] {
    return this.modelTools;
  }

  get usage(): S2spSessionUsage {
    return this.ledger.summary;
  }

  get artifacts(): readonly S2spArtifact[] {
    return this.artifactList;
  }

  /** Lists every server's tools again (e.g. after a `tools/list_changed` notification). */
  async refreshTools(signal?: AbortSignal): Promise<void> {
    const listed = new Map<string, McpToolDefinition[]>();
    for (const [id, server] of this.servers) listed.set(id, await server.listTools(signal));
    this.modelTools = s2spModelTools(listed);
  }

  /**
   * Runs the tool the model called with the arguments it wrote. Never throws for what the model
   * got wrong (an unknown tool or handle, bad arguments, rows that do not exist) nor for a tool
   * or server failure: the output is then an error the model reads.
   */
  async call(name: string, args: unknown, options: { signal?: AbortSignal } = {}): Promise<S2spToolOutput> {
    const tool = this.modelTools.find((candidate) => candidate.name === name);
    if (!tool) {
      return this.answer(
        { tool: name, serverId: '', kind: 'plain' },
        `Unknown tool "${name}". Tools: ${this.modelTools.map((each) => each.name).join(', ')}.`,
        true,
      );
    }
    if (args !== undefined && !isObject(args))
      return this.answer(usageBase(tool), `The arguments of ${name} must be a JSON object.`, true);
    const server = this.servers.get(tool.serverId) as McpServerClient;
    try {
      switch (tool.kind) {
        case 'plain':
          return await this.plainCall(tool, server, args ?? {}, options.signal);
        case 'resource':
          return await this.resourceCall(tool, server, args ?? {}, options.signal);
        case 'consumer':
          return await this.consumerCall(tool, server, args ?? {}, options.signal);
      }
    } catch (error) {
      if (error instanceof HandleError || error instanceof RowChoiceError)
        return this.answer(usageBase(tool), error.message, true);
      if (options.signal?.aborted) throw error;
      const message = error instanceof Error ? error.message : String(error);
      return this.answer(usageBase(tool), `${name} failed: ${message}`, true);
    }
  }

  /** Forgets every handle and what it kept (the conversation ended). */
  close(): void {
    this.buffer.clear();
    this.resourceUrls.clear();
  }

  private async plainCall(
    tool: S2spModelTool,
    server: McpServerClient,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<S2spToolOutput> {
    const result = await server.callTool(tool.mcpName, args, { signal });
    return this.answer(usageBase(tool), this.modelTextOf(tool, result), result.isError === true);
  }

  private async resourceCall(
    tool: S2spModelTool,
    server: McpServerClient,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<S2spToolOutput> {
    const abstractDomains = Array.isArray(args.abstract_domains)
      ? args.abstract_domains.join(',')
      : args.abstract_domains;
    if (typeof abstractDomains !== 'string' || abstractDomains.trim() === '') {
      return this.answer(
        usageBase(tool),
        `${tool.name} needs abstract_domains: the columns you want to see, comma-separated (the tool's description names them).`,
        true,
      );
    }
    const result = await server.callTool(
      tool.mcpName,
      { ...args, abstract_domains: abstractDomains, mode: this.options.mode },
      { signal, meta: this.options.countTokens ? { [S2SP_META.COUNT_TOKENS]: true } : undefined },
    );
    if (result.isError === true) return this.answer(usageBase(tool), this.modelTextOf(tool, result), true);
    const answer = readS2spResourceAnswer(result);
    if (!answer) return this.answer(usageBase(tool), `${tool.name} did not answer with S2SP rows.`, true);
    if (answer.resourceUrl !== undefined) this.resourceUrls.add(answer.resourceUrl);
    const kept = this.buffer.keep(answer, { serverId: tool.serverId, tool: tool.name });
    const text = JSON.stringify({
      handle: kept.handle,
      total_rows: answer.totalRows,
      abstract_domains: answer.abstractDomains,
      body_domains: answer.bodyDomains,
      abstract: answer.abstract,
    });
    const keptOut =
      answer.body !== undefined
        ? this.count(JSON.stringify(answer.body))
        : (answer.bodyTokens ?? 0) + this.count(answer.resourceUrl ?? '');
    return this.answer(usageBase(tool), text, false, keptOut);
  }

  private async consumerCall(
    tool: S2spModelTool,
    server: McpServerClient,
    args: Record<string, unknown>,
    signal: AbortSignal | undefined,
  ): Promise<S2spToolOutput> {
    const { handle, row_ids, where, column_mapping, ...own } = args;
    if (typeof handle !== 'string' || handle === '')
      return this.answer(usageBase(tool), `${tool.name} needs handle: the handle a resource tool answered.`, true);
    if (column_mapping !== undefined && !isStringRecord(column_mapping)) {
      return this.answer(
        usageBase(tool),
        'column_mapping must be an object of column names: {"their name": "this tool\'s name"}.',
        true,
      );
    }
    const resource = this.buffer.get(handle);
    const rows = chooseRows(resource, row_ids, where);
    const handedOver = this.buffer.spend(handle, rows);
    const filledIn: Record<string, unknown> = { abstract_data: JSON.stringify(rows) };
    if (handedOver.mode === 'async') filledIn.resource_url = handedOver.resourceUrl;
    else filledIn.body_data = JSON.stringify(handedOver.body);
    if (column_mapping !== undefined) filledIn.column_mapping = JSON.stringify(column_mapping);
    const result = await server.callTool(
      tool.mcpName,
      { ...own, ...filledIn },
      { signal, meta: handedOver.mode === 'async' ? { [S2SP_META.TOTAL_ROWS]: resource.totalRows } : undefined },
    );
    const keptOut = this.count(Object.values(filledIn).join(''));
    return this.answer(usageBase(tool), this.modelTextOf(tool, result), result.isError === true, keptOut);
  }

  /** The text a model reads of a result; other blocks become artifacts, and resource URLs are redacted. */
  private modelTextOf(tool: S2spModelTool, result: McpToolResult): string {
    const parts: string[] = [];
    for (const block of contentBlocksOf(result)) {
      if (block.type === 'text' && typeof block.text === 'string') {
        parts.push(block.text);
      } else {
        const index = this.artifactList.length + 1;
        this.artifactList.push({ index, tool: tool.name, serverId: tool.serverId, block });
        const kind = typeof block.mimeType === 'string' ? block.mimeType : block.type;
        parts.push(`[${kind} kept for the application as artifact ${index}]`);
      }
    }
    if (parts.length === 0 && result.structuredContent !== undefined)
      parts.push(JSON.stringify(result.structuredContent));
    return parts.join('\n');
  }

  private answer(
    base: Pick<S2spCallUsage, 'tool' | 'serverId' | 'kind'>,
    text: string,
    isError: boolean,
    keptOutTokens = 0,
  ): S2spToolOutput {
    const shown = this.resourceUrls.redact(text);
    const usage = this.ledger.record({ ...base, contextTokens: this.count(shown), keptOutTokens });
    return { text: shown, isError, usage };
  }

  private count(text: string): number {
    return this.options.countTokens && text !== '' ? countTokens(text) : 0;
  }
}

function usageBase(tool: S2spModelTool): Pick<S2spCallUsage, 'tool' | 'serverId' | 'kind'> {
  return { tool: tool.name, serverId: tool.serverId, kind: tool.kind };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((entry) => typeof entry === 'string');
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`S2spAgentSession: ${name} must be a positive integer`);
  return value;
}

function choice<T extends string>(name: string, value: T, allowed: readonly T[]): T {
  if (!allowed.includes(value)) throw new Error(`S2spAgentSession: ${name} must be one of ${allowed.join(', ')}`);
  return value;
}
