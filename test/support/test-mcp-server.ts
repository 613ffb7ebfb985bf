// A small MCP server for the agents tests, built like the example servers
// (@rekog/mcp-nest tools on an @McpController, served by serveMcp): a fast
// tool, a tool that answers with a tool error, a slow tool, and tools that can
// be added and removed at runtime to make the server send
// notifications/tools/list_changed.
import { Injectable, Module } from '@nestjs/common';
import { Ctx, Payload } from '@nestjs/microservices';
import { inputRequired, inputResponse, type McpServer } from '@modelcontextprotocol/server';
import { McpContext, McpController, McpStrategy, Tool, type DynamicToolDefinition } from '@rekog/mcp-nest';
import { mcpServerContext, serveMcp, type RunningMcpServer } from '@s2sp/core';
import { z } from 'zod';

const MAX_SLOW_MS = 30_000;

/** How many slow_consumer calls have started: a test cancels once one is in flight. */
@Injectable()
class SlowCallLog {
  started = 0;
}

@McpController()
class TestToolsController {
  constructor(private readonly slowCalls: SlowCallLog) {}

  @Tool({
    name: 'echo',
    description: 'Answers with the text it was given.',
    parameters: z.object({ text: z.string() }),
    annotations: { readOnlyHint: true },
  })
  echo(@Payload() args: { text: string }) {
    return { content: [{ type: 'text', text: `echo: ${args.text}` }] };
  }

  @Tool({
    name: 'always_fails',
    description: 'Always answers with a tool error (isError: true).',
    parameters: z.object({}),
    annotations: { idempotentHint: true, readOnlyHint: false },
  })
  alwaysFails() {
    return { content: [{ type: 'text', text: 'this tool always fails' }], isError: true };
  }

  @Tool({
    name: 'slow',
    description: 'Waits `ms` milliseconds (default 5000), then answers.',
    parameters: z.object({ ms: z.number().int().min(0).max(MAX_SLOW_MS).optional() }),
    annotations: { destructiveHint: true },
  })
  async slow(@Payload() args: { ms?: number }) {
    const ms = args.ms ?? 5_000;
    await new Promise((resolve) => setTimeout(resolve, ms).unref());
    return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
  }

  /** Asks the calling client for its roots (`roots/list`, an input request of either protocol era) and answers them as JSON. */
  @Tool({
    name: 'list_roots',
    description: 'Answers the roots the calling client declares, as JSON.',
    parameters: z.object({}),
    annotations: { readOnlyHint: true },
  })
  listRoots(@Payload() _args: Record<string, never>, @Ctx() context: McpContext) {
    const answer = inputResponse(mcpServerContext(context).mcpReq.inputResponses, 'roots');
    if (answer.kind !== 'roots') return inputRequired({ inputRequests: { roots: inputRequired.listRoots() } });
    return { content: [{ type: 'text', text: JSON.stringify(answer.roots) }] };
  }

  /**
   * Classified as an S2SP consumer by its parameters (abstract_data,
   * resource_url, body_data, column_mapping), but it only counts the
   * abstract rows and waits: a slow step for cancellation tests. It also
   * answers the `s2sp/total_rows` the caller put in `_meta`, if any.
   */
  @Tool({
    name: 'slow_consumer',
    description: 'Counts the abstract rows it gets after waiting `ms` milliseconds (default 5000).',
    parameters: z.object({
      abstract_data: z.string(),
      resource_url: z.string().optional(),
      body_data: z.string().optional(),
      column_mapping: z.string().optional(),
      ms: z.number().int().min(0).max(MAX_SLOW_MS).optional(),
    }),
  })
  async slowConsumer(
    @Payload() args: { abstract_data: string; body_data?: string; ms?: number },
    @Ctx() context: McpContext,
  ) {
    const ms = args.ms ?? 5_000;
    this.slowCalls.started++;
    await new Promise((resolve) => setTimeout(resolve, ms).unref());
    const rows = (JSON.parse(args.abstract_data) as unknown[]).length;
    const body =
      args.body_data === undefined ? 'no body' : `${(JSON.parse(args.body_data) as unknown[]).length} body rows`;
    const meta = (context as unknown as { mcpRequest?: { params?: { _meta?: Record<string, unknown> } } }).mcpRequest
      ?.params?._meta;
    const totalRows =
      meta?.['s2sp/total_rows'] === undefined ? '' : `; _meta s2sp/total_rows ${String(meta['s2sp/total_rows'])}`;
    return { content: [{ type: 'text', text: `consumed ${rows} rows (${body}) after ${ms} ms${totalRows}` }] };
  }
}

@Module({ controllers: [TestToolsController], providers: [SlowCallLog] })
class TestMcpModule {}

export interface TestMcpServer {
  server: RunningMcpServer;
  /** http://host:port/mcp */
  mcpUrl: string;
  port: number;
  /** Adds a tool at runtime; connected clients get notifications/tools/list_changed. */
  addTool(definition: DynamicToolDefinition): void;
  removeTool(name: string): void;
  /** How many slow_consumer calls have started so far. */
  slowConsumerCallsStarted(): number;
  close(): Promise<void>;
}

/** Starts the test MCP server (HTTP sessions on, so notifications reach clients); port 0 = any free port. */
export async function startTestMcpServer(port = 0, name = 'testkit'): Promise<TestMcpServer> {
  const server = await serveMcp(TestMcpModule, {
    name,
    version: '1.0.0',
    host: '127.0.0.1',
    port,
    transport: 'http',
    logger: false,
  });
  const strategy = server.app.getMicroservices()[0].getTransportServer() as unknown as McpStrategy;
  const sessions = trackSessions(strategy);
  const announce = () => {
    for (const session of sessions) if (session.isConnected()) session.sendToolListChanged();
  };
  return {
    server,
    mcpUrl: `${server.url}/mcp`,
    port: server.port,
    addTool(definition) {
      strategy.registerTool(definition);
      announce();
    },
    removeTool(name) {
      strategy.removeTool(name);
      announce();
    },
    slowConsumerCallsStarted: () => server.app.get(SlowCallLog).started,
    close: () => closeHard(server),
  };
}

/**
 * Stops the server like a crash would, as far as clients can tell: Nest's
 * close waits for open HTTP connections, and MCP clients keep one open (the
 * session's notification stream), so connections are closed by force.
 */
async function closeHard(server: RunningMcpServer): Promise<void> {
  const http = server.app.getHttpServer() as import('node:http').Server;
  http.closeAllConnections();
  const killer = setInterval(() => http.closeAllConnections(), 25);
  try {
    await server.close();
  } finally {
    clearInterval(killer);
  }
}

/**
 * @rekog/mcp-nest 2.0.5's registerTool/removeTool announce list changes only
 * to "modern" (stateless 2026) clients: the per-session servers of HTTP
 * sessions opened by current clients (protocol 2025-11-25, e.g. the
 * official v1 SDK) are never told. Until that is fixed upstream, keep the
 * session servers (through the strategy's serverMutator option, which
 * applies to sessions created afterwards) and send the notification on them.
 */
function trackSessions(strategy: McpStrategy): Set<McpServer> {
  const sessions = new Set<McpServer>();
  const previous = strategy.options.serverMutator;
  (strategy.options as { serverMutator?: (server: McpServer) => McpServer }).serverMutator = (created: McpServer) => {
    const server = previous ? previous(created) : created;
    sessions.add(server);
    return server;
  };
  return sessions;
}
