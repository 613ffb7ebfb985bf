import type { ServerResponse } from 'node:http';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { McpTransportContext } from '@rekog/mcp-nest';
import { EraSplitHttpTransport } from './era-split-http-transport';
import { sendJsonRpcHttpError } from './json-rpc-http-error';
import type { McpRequest } from './mcp-request';
import { nodeMcpHandler } from './node-streamable-http-handler';

const TRANSPORT_ERROR = -32000;

/**
 * MCP Streamable HTTP without sessions (`serveMcp`'s `sessions: false`): every POST is served on
 * its own by a server built for it, answered as JSON, and the server is closed when the response
 * is (answered, or the client went away: a handler still running sees its signal aborted). There
 * is no notification stream to open or session to end: GET and DELETE are answered 405.
 */
export class StatelessHttpTransport extends EraSplitHttpTransport {
  /** Each request's own transport, for the one node adapter every request goes through. */
  private readonly transports = new WeakMap<McpRequest, WebStandardStreamableHTTPServerTransport>();
  private readonly serve = nodeMcpHandler((webRequest, options, incoming) =>
    this.transports.get(incoming)!.handleRequest(webRequest, options),
  );

  protected started(ctx: McpTransportContext): void {
    ctx.logger.log(`MCP streamable-http transport mounted at ${this.endpoint} (stateless)`);
  }

  protected async handlePost(request: McpRequest, response: ServerResponse): Promise<void> {
    const server = this.ctx.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    response.once('close', () => void server.close().catch(() => undefined));
    await server.connect(transport);
    this.ctx.bindRequestHandlers(server, { transport: this.kind, stateless: true, era: 'legacy' }, request);
    this.transports.set(request, transport);
    await this.serve(request, response, request.body);
  }

  protected handleStream(_request: McpRequest, response: ServerResponse): Promise<void> {
    sendJsonRpcHttpError(
      response,
      405,
      TRANSPORT_ERROR,
      'Method not allowed: this server has no sessions (stateless).',
      {
        allow: 'POST',
      },
    );
    return Promise.resolve();
  }
}
