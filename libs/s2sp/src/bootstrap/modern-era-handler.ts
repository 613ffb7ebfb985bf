import type { IncomingMessage, ServerResponse } from 'node:http';
import { createMcpHandler, type McpHttpHandler } from '@modelcontextprotocol/server';
import type { McpTransportContext } from '@rekog/mcp-nest';
import type { McpRequest } from './mcp-request';
import { nodeMcpHandler, type NodeStreamableHttpHandler } from './node-streamable-http-handler';

/**
 * Serves the stateless 2026 protocol era: each request is answered by a server the strategy
 * builds and binds for it (as @rekog/mcp-nest's own handler does), through the SDK's
 * createMcpHandler, on node's request and response with the body the endpoint's middleware read.
 *
 * Not @rekog/mcp-nest's handler: it runs the SDK's Node adapter inside an AsyncLocalStorage
 * store that holds the node request, and the adapter gives each web Request an AbortSignal whose
 * listeners (which undici keeps until that Request is finalized) reach the store, so every
 * request, its response and their Express state outlived the exchange by several major GCs:
 * under load a server's heap grew to 800–930 MiB (bench/framework-overhead, `modern`).
 */
export class ModernEraHandler {
  private readonly nodeRequests = new WeakMap<object, IncomingMessage>();
  private readonly handler: McpHttpHandler;
  private readonly serve: NodeStreamableHttpHandler;

  constructor(ctx: McpTransportContext, kind: 'streamable-http') {
    this.handler = createMcpHandler(
      (requestContext) =>
        ctx.createBoundServer(
          { transport: kind, stateless: true, era: 'modern' },
          requestContext.requestInfo ? this.nodeRequests.get(requestContext.requestInfo) : undefined,
        ),
      {
        legacy: 'reject',
        onerror: (error) => ctx.logger.warn(`MCP 2026-era handler: ${error.message}`),
      },
    );
    this.serve = nodeMcpHandler((webRequest, options, incoming) => {
      this.nodeRequests.set(webRequest, incoming);
      return this.handler.fetch(webRequest, options);
    });
  }

  handle(request: McpRequest, response: ServerResponse): Promise<void> {
    return this.serve(request, response, request.body);
  }

  /** Tells the open `subscriptions/listen` streams that a list changed. */
  listChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    if (kind === 'tools') this.handler.notify.toolsChanged();
    else if (kind === 'resources') this.handler.notify.resourcesChanged();
    else this.handler.notify.promptsChanged();
  }

  /** Aborts the exchanges in flight and closes their servers. */
  close(): Promise<void> {
    return this.handler.close();
  }
}
