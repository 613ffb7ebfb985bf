import type { IncomingMessage, ServerResponse } from 'node:http';
import { classifyInboundRequest } from '@modelcontextprotocol/server';
import { StreamableHttpTransport, type McpTransport, type McpTransportContext } from '@rekog/mcp-nest';
import { nodeRequestOf, nodeResponseOf, takeNodeResponse } from '@s2sp/platform/internal';
import { sendJsonRpcHttpError } from './json-rpc-http-error';

/** A request to `/mcp`, with the JSON body the endpoint's middleware has read. */
export type McpRequest = IncomingMessage & { body?: unknown };

/**
 * MCP Streamable HTTP at one endpoint, split by protocol era: requests of the stateless 2026
 * era go to @rekog/mcp-nest's own handler, on the adapter's objects as it expects them; those of
 * the 2025 era go to the subclass, on node's request and response (Express's, or Fastify's with
 * the reply hijacked), which it answers itself. A failure the subclass does not answer is
 * answered 500 `-32603` and logged without its details.
 */
export abstract class EraSplitHttpTransport implements McpTransport {
  readonly kind = 'streamable-http' as const;
  private readonly modernEra = new StreamableHttpTransport({ statefulMode: false, mount: false });
  private context?: McpTransportContext;

  constructor(protected readonly endpoint: string) {}

  async start(ctx: McpTransportContext): Promise<void> {
    if (!ctx.httpAdapter)
      throw new Error(`${this.constructor.name} needs the HTTP adapter (McpStrategy.setHttpAdapter).`);
    this.context = ctx;
    // eslint-disable-next-line @typescript-eslint/await-thenable, @typescript-eslint/no-confusing-void-expression -- typed void, but the transport may start asynchronously: awaiting it is harmless and keeps the order
    await this.modernEra.start(ctx);
    const modern = this.modernEra.httpHandlers;
    const adapter = ctx.httpAdapter;
    adapter.post(this.endpoint, (adapterRequest: unknown, adapterResponse: unknown) => {
      const request = nodeRequestOf(adapterRequest) as McpRequest;
      if (isModernEra(request))
        return this.guarded(
          nodeResponseOf(adapterResponse),
          async () => await modern.handlePost(adapterRequest, adapterResponse),
        );
      const response = takeNodeResponse(adapterResponse);
      return this.guarded(response, () => this.handlePost(request, response));
    });
    const stream = (adapterRequest: unknown, adapterResponse: unknown) => {
      const [request, response] = [nodeRequestOf(adapterRequest) as McpRequest, takeNodeResponse(adapterResponse)];
      return this.guarded(response, () => this.handleStream(request, response));
    };
    adapter.get(this.endpoint, stream);
    adapter.delete(this.endpoint, stream);
    this.started(ctx);
  }

  async close(): Promise<void> {
    await this.closeLegacyEra();
    await this.modernEra.close();
  }

  notifyListChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    this.modernEra.notifyListChanged(kind);
  }

  /** The strategy's context, once started. */
  protected get ctx(): McpTransportContext {
    if (!this.context) throw new Error(`${this.constructor.name} has not been started.`);
    return this.context;
  }

  /** A 2025-era POST (JSON-RPC messages). */
  protected abstract handlePost(request: McpRequest, response: ServerResponse): Promise<void>;

  /** A 2025-era GET (the notification stream) or DELETE (end of session). */
  protected abstract handleStream(request: McpRequest, response: ServerResponse): Promise<void>;

  /** Runs once the routes are mounted: log, start timers. */
  protected abstract started(ctx: McpTransportContext): void;

  /** Releases what the 2025 era holds, at close. */
  protected abstract closeLegacyEra(): Promise<void>;

  private async guarded(response: ServerResponse, handle: () => Promise<void>): Promise<void> {
    try {
      await handle();
    } catch (error) {
      this.context?.logger.error(
        `Error handling an MCP request: ${error instanceof Error ? error.message : 'unknown error'}`,
      );
      sendJsonRpcHttpError(response, 500, -32603, 'Internal server error');
    }
  }
}

function isModernEra(request: McpRequest): boolean {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : undefined;
  };
  const outcome = classifyInboundRequest({
    httpMethod: request.method ?? 'POST',
    protocolVersionHeader: header('mcp-protocol-version'),
    mcpMethodHeader: header('mcp-method'),
    mcpNameHeader: header('mcp-name'),
    body: request.body,
  });
  return outcome.kind !== 'legacy';
}
