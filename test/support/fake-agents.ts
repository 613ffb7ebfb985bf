// A fake of the agents' gRPC server for gateway tests: s2sp.v1 ToolService and
// AgentService from the real protos (and, when asked, s2sp.v2 ToolService's
// ListSurfaces) plus the standard grpc.health.v1 service, with programmable
// behaviour and response headers, recorded calls, and stop/restart on one port.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { HealthImplementation, type ServingStatus } from 'grpc-health-check';
import { PROTO_LOADER_OPTIONS, fromStruct, toStruct } from '../../libs/contracts/src';
import { toTimestamp } from '../../libs/contracts/src/internal';
import { PROTO_FILE_PATHS } from '../../libs/contracts/src/proto-path';

type Decoded = Record<string, any>;

interface S2spPackage {
  s2sp: {
    v1: { ToolService: grpc.ServiceClientConstructor; AgentService: grpc.ServiceClientConstructor };
    v2: { ToolService: grpc.ServiceClientConstructor };
  };
}

const pkg = grpc.loadPackageDefinition(
  protoLoader.loadSync([...PROTO_FILE_PATHS], { ...PROTO_LOADER_OPTIONS }),
) as unknown as S2spPackage;

export const TOOL_METHODS = ['ListTools', 'InvokeTool', 'ListServers'] as const;
export const AGENT_METHODS = ['SubmitTask', 'GetTask', 'CancelTask'] as const;
/** s2sp.v2 ToolService methods the fake serves when started with `surfaces` (contract 2.1.0 on). */
export const TOOL_V2_METHODS = ['ListSurfaces'] as const;
export type FakeMethod =
  (typeof TOOL_METHODS)[number] | (typeof AGENT_METHODS)[number] | (typeof TOOL_V2_METHODS)[number];

/** One call the fake received. */
export interface RecordedCall {
  method: FakeMethod;
  request: Decoded;
  /** First value of each metadata key (binary values as base64). */
  metadata: Record<string, string>;
  /** The gRPC deadline as the server saw it on arrival, in ms from then; undefined when the call had none. */
  deadlineMs: number | undefined;
  receivedAt: number;
  /** The client cancelled the call (or its deadline passed) before the fake answered. */
  cancelled: boolean;
}

/** Throw from a handler to answer with a gRPC status (and trailing metadata). */
export class FakeGrpcError extends Error {
  constructor(
    readonly code: grpc.status,
    readonly details = '',
    readonly trailers: Record<string, string> = {},
  ) {
    super(`${grpc.status[code]}: ${details}`);
  }
}

export interface FakeCall {
  record: RecordedCall;
  /** Aborted when the client cancels the call. */
  signal: AbortSignal;
}

export type FakeHandler = (request: Decoded, call: FakeCall) => unknown | Promise<unknown>;

/** Waits ms, or rejects as soon as the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new Error('cancelled'));
      },
      { once: true },
    );
  });
}

export const WEATHER_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    area: { type: 'string', description: 'US state code' },
    abstract_domains: { type: 'string' },
    mode: { type: 'string', enum: ['async', 'sync'] },
  },
  required: ['area'],
};

export const WEATHER_TOOL_OUTPUT_SCHEMA = {
  type: 'object',
  properties: { total_rows: { type: 'integer' }, abstract: { type: 'array', items: { type: 'object' } } },
};

export const FAKE_TOOLS: Decoded[] = [
  {
    name: 'get_alerts',
    server: 'weather',
    title: 'Weather alerts',
    description: 'Active weather alerts for a US state.',
    input_schema: toStruct(WEATHER_TOOL_INPUT_SCHEMA),
    output_schema: toStruct(WEATHER_TOOL_OUTPUT_SCHEMA),
    mutation_class: 'MUTATION_CLASS_READ_ONLY',
    kind: 'TOOL_KIND_S2SP_RESOURCE',
    version: '1',
    required_scopes: ['weather:read'],
  },
  {
    name: 'draw_chart',
    server: 'stats',
    description: 'Bar chart of the rows by one column.',
    input_schema: toStruct({ type: 'object', properties: { group_by: { type: 'string' } } }),
    mutation_class: 'MUTATION_CLASS_READ_ONLY',
    kind: 'TOOL_KIND_S2SP_CONSUMER',
  },
  {
    name: 'echo',
    server: 'stats',
    description: 'Returns its arguments.',
    input_schema: toStruct({ type: 'object' }),
    kind: 'TOOL_KIND_STANDARD',
    mutation_class: 'MUTATION_CLASS_IDEMPOTENT_WRITE',
  },
];

export const FAKE_SERVERS: Decoded[] = [
  { id: 'weather', url: 'http://127.0.0.1:3101/mcp', connected: true, circuit: 'CIRCUIT_STATE_CLOSED', tool_count: 1 },
  { id: 'stats', url: 'http://127.0.0.1:3102/mcp', connected: true, circuit: 'CIRCUIT_STATE_CLOSED', tool_count: 2 },
];

/** A snapshot with every kind of field the gateway transcodes (Structs, Timestamps, uint64s, enums). */
export function fakeTaskSnapshot(taskId: string): Decoded {
  const t0 = Date.parse('2026-11-22T12:00:00.000Z');
  return {
    task_id: taskId,
    status: 'TASK_STATUS_SUCCEEDED',
    steps: [
      {
        task_id: taskId,
        step_number: 1,
        type: 'STEP_TYPE_RETRIEVE',
        outcome: 'STEP_OUTCOME_SUCCESS',
        plan_step_id: 'alerts',
        summary: '14 alerts, 2 columns in context',
        payload: toStruct({ total_rows: 14, abstract: [{ _row_id: 0, event: 'Wind Advisory', severity: null }] }),
        tool_calls: [
          {
            invocation_id: 'inv-1',
            tool_name: 'get_alerts',
            server: 'weather',
            status: 'TOOL_RESULT_STATUS_SUCCESS',
            usage: { tokens_in_context: '120', tokens_kept_out: '2300', tool_calls: 1 },
            data_plane: {
              mode: 'DATA_PLANE_MODE_ASYNC',
              resource_url: 'http://127.0.0.1:3101/s2sp/data/SECRET-CAPABILITY',
              expires_at: toTimestamp(t0 + 600_000),
              abstract_domains: ['event', 'severity'],
              body_domains: ['description'],
              total_rows: '14',
            },
            started_at: toTimestamp(t0),
            finished_at: toTimestamp(t0 + 250),
          },
        ],
        usage: { tokens_in_context: '120', tokens_kept_out: '2300', tool_calls: 1, wall_time_ms: '250' },
        started_at: toTimestamp(t0),
        finished_at: toTimestamp(t0 + 250),
      },
      {
        task_id: taskId,
        step_number: 2,
        type: 'STEP_TYPE_ACT',
        outcome: 'STEP_OUTCOME_FAILURE',
        plan_step_id: 'chart',
        error: {
          code: 1002,
          message: 'draw_chart failed',
          recovery_hint: 'REVISE_TASK',
          details: toStruct({ server: 'stats' }),
        },
      },
    ],
    usage: {
      tokens_in_context: '123456789012',
      tokens_kept_out: '2300',
      rows_in_context: '5',
      cost_microdollars: '42',
    },
    result: toStruct({
      chart: { bars: 2, labels: ['Wind Advisory', 'High Wind Warning'] },
      rows: 5,
      ok: true,
      note: null,
    }),
    created_at: toTimestamp(t0 - 1000),
    updated_at: toTimestamp(t0 + 250),
    completed_at: toTimestamp(t0 + 250),
    trace: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', span_id: '00f067aa0ba902b7' },
  };
}

export const FAKE_SURFACES: Decoded = {
  resources: [
    {
      server: 'weather',
      uri: 'weather://alerts/CA',
      name: 'alerts-CA',
      title: '',
      description: 'Alerts of CA',
      mime_type: 'application/json',
    },
  ],
  resource_templates: [],
  prompts: [],
};

function defaultHandlers(): Map<FakeMethod, FakeHandler> {
  return new Map<FakeMethod, FakeHandler>([
    [
      'ListTools',
      (request) => {
        const tools = request.server ? FAKE_TOOLS.filter((tool) => tool.server === request.server) : FAKE_TOOLS;
        const size = request.page_size || tools.length;
        const start = request.cursor ? Number(request.cursor) : 0;
        const page = tools.slice(start, start + size);
        return { tools: page, next_cursor: start + size < tools.length ? String(start + size) : '' };
      },
    ],
    [
      'InvokeTool',
      (request) => ({
        invocation_id: request.invocation_id,
        status: 'TOOL_RESULT_STATUS_SUCCESS',
        output: toStruct({
          content: [{ type: 'text', text: `called ${request.tool_name}` }],
          structuredContent: {
            tool: request.tool_name,
            server: request.server,
            arguments: fromStruct(request.input_params),
          },
        }),
      }),
    ],
    ['ListServers', () => ({ servers: FAKE_SERVERS })],
    ['ListSurfaces', () => FAKE_SURFACES],
    [
      'SubmitTask',
      (request) => ({
        task_id: request.task.task_id,
        status: 'TASK_STATUS_ACCEPTED',
        estimated_completion_ms: '4500',
        trace: request.task.trace,
      }),
    ],
    ['GetTask', (request) => ({ task: fakeTaskSnapshot(request.task_id) })],
    [
      'CancelTask',
      (request) => ({
        task_id: request.task_id,
        status: request.mode === 'CANCEL_MODE_HARD' ? 'TASK_STATUS_CANCELLED' : 'TASK_STATUS_CANCELLING',
      }),
    ],
  ]);
}

export interface FakeAgentsOptions {
  /** Also serve s2sp.v2 ToolService (ListSurfaces; its InvokeTool answers UNIMPLEMENTED), as agents of contract 2.1.0 on do. */
  surfaces?: boolean;
}

export class FakeAgents {
  readonly calls: RecordedCall[] = [];
  readonly health = new HealthImplementation({ '': 'SERVING' });
  private handlers = defaultHandlers();
  private readonly responseHeaders = new Map<FakeMethod, Record<string, string>>();
  private server?: grpc.Server;

  private constructor(
    public port: number,
    private readonly options: FakeAgentsOptions,
  ) {}

  /** Starts on 127.0.0.1 (port 0 = a free port). */
  static async start(port = 0, options: FakeAgentsOptions = {}): Promise<FakeAgents> {
    const fake = new FakeAgents(port, options);
    await fake.restart();
    return fake;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.server !== undefined;
  }

  /** Replaces the behaviour of one method. */
  on(method: FakeMethod, handler: FakeHandler): this {
    this.handlers.set(method, handler);
    return this;
  }

  /** Sends these response headers with every answer of method. */
  headers(method: FakeMethod, headers: Record<string, string>): this {
    this.responseHeaders.set(method, headers);
    return this;
  }

  /** Answers every call of method with this response. */
  reply(method: FakeMethod, response: Decoded): this {
    return this.on(method, () => response);
  }

  /** Answers every call of method with a gRPC error. */
  fail(method: FakeMethod, code: grpc.status, details = '', trailers: Record<string, string> = {}): this {
    return this.on(method, () => {
      throw new FakeGrpcError(code, details, trailers);
    });
  }

  /** Makes method wait ms (or until cancelled) before behaving as before. */
  delay(method: FakeMethod, ms: number): this {
    const inner = this.handlers.get(method)!;
    return this.on(method, async (request, call) => {
      await sleep(ms, call.signal);
      return inner(request, call);
    });
  }

  setServing(status: ServingStatus): void {
    this.health.setStatus('', status);
  }

  callsTo(method: FakeMethod): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** Default behaviour, no recorded calls, SERVING. */
  reset(): void {
    this.handlers = defaultHandlers();
    this.responseHeaders.clear();
    this.calls.length = 0;
    this.setServing('SERVING');
  }

  /** Stops at once (open calls fail with UNAVAILABLE); restart() brings it back on the same port. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    server?.forceShutdown();
  }

  async restart(): Promise<void> {
    if (this.server) return;
    const server = new grpc.Server();
    server.addService(pkg.s2sp.v1.ToolService.service, this.implementation(TOOL_METHODS));
    server.addService(pkg.s2sp.v1.AgentService.service, {
      ...this.implementation(AGENT_METHODS),
      StreamTask: (call: grpc.ServerWritableStream<Decoded, unknown>) => call.end(),
    });
    if (this.options.surfaces) server.addService(pkg.s2sp.v2.ToolService.service, this.implementation(TOOL_V2_METHODS));
    this.health.addToServer(server);
    this.port = await new Promise<number>((resolve, reject) =>
      server.bindAsync(`127.0.0.1:${this.port}`, grpc.ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
    this.server = server;
  }

  private implementation(methods: readonly FakeMethod[]): grpc.UntypedServiceImplementation {
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const method of methods) {
      implementation[method] = (call: grpc.ServerUnaryCall<Decoded, unknown>, callback: grpc.sendUnaryData<unknown>) =>
        void this.handle(method, call, callback);
    }
    return implementation;
  }

  private async handle(
    method: FakeMethod,
    call: grpc.ServerUnaryCall<Decoded, unknown>,
    callback: grpc.sendUnaryData<unknown>,
  ): Promise<void> {
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
    const metadata: Record<string, string> = {};
    for (const [key, value] of Object.entries(call.metadata.getMap())) {
      metadata[key] = typeof value === 'string' ? value : value.toString('base64');
    }
    const record: RecordedCall = {
      method,
      request: call.request,
      metadata,
      deadlineMs: Number.isFinite(deadlineMs) ? deadlineMs - Date.now() : undefined,
      receivedAt: Date.now(),
      cancelled: false,
    };
    this.calls.push(record);
    const cancelled = new AbortController();
    call.on('cancelled', () => {
      record.cancelled = true;
      cancelled.abort();
    });
    try {
      const response = await this.handlers.get(method)!(call.request, { record, signal: cancelled.signal });
      const headers = this.responseHeaders.get(method);
      if (headers) {
        const metadata = new grpc.Metadata();
        for (const [key, value] of Object.entries(headers)) metadata.set(key, value);
        call.sendMetadata(metadata);
      }
      callback(null, response);
    } catch (error) {
      if (error instanceof FakeGrpcError) {
        const trailers = new grpc.Metadata();
        for (const [key, value] of Object.entries(error.trailers)) trailers.set(key, value);
        callback({ code: error.code, details: error.details, metadata: trailers });
      } else if (!cancelled.signal.aborted) {
        callback({ code: grpc.status.INTERNAL, details: error instanceof Error ? error.message : String(error) });
      }
    }
  }
}
