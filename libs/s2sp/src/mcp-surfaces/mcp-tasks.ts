import { randomUUID } from 'node:crypto';
import {
  CLIENT_CAPABILITIES_META_KEY,
  isInputRequiredResult,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type ClientCapabilities,
  type InputRequiredResult,
  type McpServer,
  type ServerContext,
} from '@modelcontextprotocol/server';
import type { Context } from '@rekog/mcp-nest';
import { z } from 'zod';
import { mcpServerContext } from './mcp-request-context';

/**
 * The extension's identifier, under `capabilities.extensions` of client and server.
 * @public
 */
export const MCP_TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * The `io.modelcontextprotocol/tasks` extension of a server built with `serveMcp`: how long a
 * task stays readable and how often clients should poll. Tasks live in the memory of the process
 * that created them: replicas behind one address need sticky routing for `tasks/*`.
 * @public
 */
export interface McpTasksOptions {
  /** How long a task stays readable after it was created, in ms. Default one hour. */
  ttlMs?: number;
  /** The polling interval suggested to clients, in ms. Default 500. */
  pollIntervalMs?: number;
}

/**
 * What a task's work gets: the answers the client gave so far (`tasks/update`), and the signal
 * that aborts when the task is cancelled.
 * @public
 */
export interface McpTaskContext {
  /** Every answer the client delivered with `tasks/update`, by the key of its input request. */
  inputResponses: Record<string, unknown>;
  /** Aborts when the client cancels the task (`tasks/cancel`). */
  signal: AbortSignal;
}

/**
 * The work of a task: a tool result, or an `InputRequiredResult` that parks the task as
 * `input_required` until the client answers with `tasks/update` (then the work runs again with
 * the answers). A thrown `ProtocolError` fails the task; any other error is a tool error.
 * @public
 */
export type McpTaskWork = (task: McpTaskContext) => Promise<CallToolResult | InputRequiredResult>;

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

interface StoredTask {
  taskId: string;
  status: TaskStatus;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  expiresAt: number;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
  inputRequests?: Record<string, unknown>;
  inputResponses: Record<string, unknown>;
  abort: AbortController;
  work: McpTaskWork;
  running: boolean;
}

const TERMINAL: ReadonlySet<TaskStatus> = new Set(['completed', 'failed', 'cancelled']);
const stores = new WeakMap<object, McpTaskStore>();

/** The tasks of one strategy (every server it builds shares them). */
export class McpTaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  readonly ttlMs: number;
  readonly pollIntervalMs: number;

  constructor(options: McpTasksOptions = {}) {
    this.ttlMs = options.ttlMs ?? 60 * 60 * 1000;
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
  }

  /** Creates the task (readable at once), starts its work, and answers the CreateTaskResult. */
  create(work: McpTaskWork): Record<string, unknown> {
    this.sweep();
    const now = new Date().toISOString();
    const task: StoredTask = {
      taskId: randomUUID(),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      expiresAt: Date.now() + this.ttlMs,
      inputResponses: {},
      abort: new AbortController(),
      work,
      running: false,
    };
    this.tasks.set(task.taskId, task);
    this.run(task);
    return { resultType: 'task', ...this.envelope(task) };
  }

  /** `tasks/get`: the task, with its result, error or pending input requests. */
  get(taskId: string): Record<string, unknown> {
    const task = this.find(taskId);
    return {
      resultType: 'complete',
      ...this.envelope(task),
      ...(task.status === 'completed' && task.result ? { result: task.result } : {}),
      ...(task.status === 'failed' && task.error ? { error: task.error } : {}),
      ...(task.status === 'input_required' && task.inputRequests ? { inputRequests: task.inputRequests } : {}),
    };
  }

  /** `tasks/update`: answers to pending input requests; the work runs again once every one is answered. */
  update(taskId: string, inputResponses: unknown): Record<string, unknown> {
    if (typeof inputResponses !== 'object' || inputResponses === null || Array.isArray(inputResponses))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'inputResponses must be an object');
    const task = this.find(taskId);
    if (task.status !== 'input_required' || !task.inputRequests) return { resultType: 'complete' };
    const pending = { ...task.inputRequests };
    for (const [key, answer] of Object.entries(inputResponses as Record<string, unknown>)) {
      if (!(key in pending)) continue;
      task.inputResponses[key] = answer;
      delete pending[key];
    }
    task.inputRequests = pending;
    this.touch(task);
    if (Object.keys(pending).length === 0) {
      task.inputRequests = undefined;
      task.status = 'working';
      this.run(task);
    }
    return { resultType: 'complete' };
  }

  /** `tasks/cancel`: an active task ends cancelled; a finished one stays as it is. */
  cancel(taskId: string): Record<string, unknown> {
    const task = this.find(taskId);
    if (!TERMINAL.has(task.status)) {
      task.status = 'cancelled';
      task.inputRequests = undefined;
      task.abort.abort();
      this.touch(task);
    }
    return { resultType: 'complete' };
  }

  private run(task: StoredTask): void {
    if (task.running) return;
    task.running = true;
    const context: McpTaskContext = { inputResponses: { ...task.inputResponses }, signal: task.abort.signal };
    void task
      .work(context)
      .then(
        (outcome) => {
          if (task.status === 'cancelled') return;
          if (isInputRequiredResult(outcome)) {
            task.status = 'input_required';
            task.inputRequests = { ...(outcome.inputRequests ?? {}) };
          } else {
            task.status = 'completed';
            task.result = outcome;
          }
        },
        (error: unknown) => {
          if (task.status === 'cancelled') return;
          if (error instanceof ProtocolError) {
            task.status = 'failed';
            task.error = {
              code: error.code,
              message: error.message,
              ...(error.data === undefined ? {} : { data: error.data }),
            };
          } else {
            task.status = 'completed';
            task.result = {
              content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }],
              isError: true,
            };
          }
        },
      )
      .finally(() => {
        task.running = false;
        this.touch(task);
      });
  }

  private envelope(task: StoredTask): Record<string, unknown> {
    return {
      taskId: task.taskId,
      status: task.status,
      createdAt: task.createdAt,
      lastUpdatedAt: task.lastUpdatedAt,
      ttlMs: task.ttlMs,
      pollIntervalMs: task.pollIntervalMs,
    };
  }

  private find(taskId: unknown): StoredTask {
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task || task.expiresAt < Date.now())
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown task: ${String(taskId)}`);
    return task;
  }

  private touch(task: StoredTask): void {
    task.lastUpdatedAt = new Date().toISOString();
  }

  private sweep(): void {
    const now = Date.now();
    for (const [taskId, task] of this.tasks) if (task.expiresAt < now) this.tasks.delete(taskId);
  }
}

/** Whether the request's client declared the extension (per request on 2026-07-28, per session before). */
function declaresTasks(capabilities: ClientCapabilities | undefined): boolean {
  const extensions = (capabilities as { extensions?: Record<string, unknown> } | undefined)?.extensions;
  return extensions?.[MCP_TASKS_EXTENSION] !== undefined;
}

function clientCapabilitiesOf(server: McpServer, sdk: ServerContext): ClientCapabilities | undefined {
  const envelope = (sdk.mcpReq.envelope as Record<string, unknown> | undefined)?.[CLIENT_CAPABILITIES_META_KEY] as
    ClientCapabilities | undefined;
  return envelope ?? server.server.getClientCapabilities();
}

const missingTasks = () =>
  new MissingRequiredClientCapabilityError({
    requiredCapabilities: { extensions: { [MCP_TASKS_EXTENSION]: {} } },
  });

/** A protocol error a tool handler hands back (instead of throwing it through Nest's exception filters). */
const REFUSAL = Symbol('mcp-protocol-refusal');

/** Whether a tool result is a refusal to turn into the JSON-RPC error it carries. */
export function refusalOf(value: unknown): ProtocolError | undefined {
  return typeof value === 'object' && value !== null && REFUSAL in value
    ? (value as { [REFUSAL]: ProtocolError })[REFUSAL]
    : undefined;
}

/**
 * Runs a tool call as a task of the `io.modelcontextprotocol/tasks` extension: the tool answers a
 * `CreateTaskResult` at once, and the client follows the task with `tasks/get` (its status, then
 * its result), answers its questions with `tasks/update` and may cancel it with `tasks/cancel`.
 * A client that did not declare the extension gets the work's result in the call itself, or,
 * with `required`, the `-32021` error naming the extension. Needs `serveMcp({ tasks: {} })`.
 * @public
 */
export async function runAsTask(
  context: Context,
  work: McpTaskWork,
  options: { required?: boolean } = {},
): Promise<CallToolResult | InputRequiredResult | Record<string, unknown>> {
  const store = stores.get(context.mcpServer.server);
  if (!store) throw new Error('runAsTask: the server was built without tasks (serveMcp({ tasks: {} }))');
  const sdk = mcpServerContext(context);
  if (declaresTasks(clientCapabilitiesOf(context.mcpServer, sdk))) return store.create(work);
  // Handed back, not thrown: Nest's exception filters would make a thrown one an internal error.
  if (options.required) return { [REFUSAL]: missingTasks() } as unknown as Record<string, unknown>;
  return work({ inputResponses: { ...(sdk.mcpReq.inputResponses ?? {}) }, signal: sdk.mcpReq.signal });
}

/** Whether a tool result is a CreateTaskResult (passed to the client as it is). */
export function isCreateTaskResult(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'task';
}

const taskId = z.object({ taskId: z.string() }).passthrough();

/**
 * Serves `tasks/get`, `tasks/update` and `tasks/cancel` on `server` from `store`, and declares the
 * extension. A client that did not declare it gets `-32021` from each.
 */
export function serveTasks(server: McpServer, store: McpTaskStore): void {
  stores.set(server.server, store);
  server.server.registerCapabilities({ extensions: { [MCP_TASKS_EXTENSION]: {} } });
  const gated =
    (answer: (params: Record<string, unknown>, ctx: ServerContext) => Record<string, unknown>) =>
    (params: Record<string, unknown>, ctx: ServerContext) => {
      if (!declaresTasks(clientCapabilitiesOf(server, ctx))) throw missingTasks();
      return answer(params, ctx);
    };
  const low = server.server as unknown as {
    setRequestHandler(method: string, schemas: unknown, handler: (params: never, ctx: ServerContext) => unknown): void;
  };
  low.setRequestHandler(
    'tasks/get',
    { params: taskId },
    gated((params) => store.get(params['taskId'] as string)),
  );
  low.setRequestHandler(
    'tasks/update',
    { params: taskId },
    // The SDK lifts inputResponses out of the params into the request context.
    gated((params, ctx) =>
      store.update(params['taskId'] as string, ctx.mcpReq.inputResponses ?? params['inputResponses']),
    ),
  );
  low.setRequestHandler(
    'tasks/cancel',
    { params: taskId },
    gated((params) => store.cancel(params['taskId'] as string)),
  );
}
