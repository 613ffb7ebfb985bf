import type { ServerResponse } from 'node:http';
import type { McpTransport, McpTransportContext } from '@rekog/mcp-nest';
import { nodeRequestOf, takeNodeResponse } from '@s2sp/platform/internal';
import { isModernEra } from './inbound-era';
import { sendJsonRpcHttpError } from './json-rpc-http-error';
import type { McpRequest } from './mcp-request';
import { ModernEraHandler } from './modern-era-handler';

/**
 * MCP Streamable HTTP at one endpoint, split by protocol era: requests of the stateless 2026
 * era go to {@link ModernEraHandler}, those of the 2025 era to the subclass; both on node's
 * request and response (Express's, or Fastify's with the reply hijacked). A failure not answered
 * is answered 500 `-32603` and logged without its details.
 */
export abstract class EraSplitHttpTransport implements McpTransport {
  readonly kind = 'streamable-http' as const;
  private modernEra?: ModernEraHandler;
  private context?: McpTransportContext;

  constructor(protected readonly endpoint: string) {}

  start(ctx: McpTransportContext): void {
    if (!ctx.httpAdapter)
      throw new Error(`${this.constructor.name} needs the HTTP adapter (McpStrategy.setHttpAdapter).`);
    this.context = ctx;
    const modern = new ModernEraHandler(ctx, this.kind);
    this.modernEra = modern;
    const adapter = ctx.httpAdapter;
    adapter.post(this.endpoint, (adapterRequest: unknown, adapterResponse: unknown) => {
      const request = nodeRequestOf(adapterRequest) as McpRequest;
      const response = takeNodeResponse(adapterResponse);
      return this.guarded(response, () =>
        isModernEra(request) ? modern.handle(request, response) : this.handlePost(request, response),
      );
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
    await this.modernEra?.close();
  }

  notifyListChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    this.modernEra?.listChanged(kind);
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

  /** Releases what the 2025 era holds, at close (nothing, unless a subclass keeps something between requests). */
  protected async closeLegacyEra(): Promise<void> {}

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
