import { Controller, Inject, Logger, Post, Req, Res } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANONYMOUS_CALLER } from './json-rpc-call-context';
import { JsonRpcDispatcher } from './json-rpc-dispatcher';
import { JsonRpcError } from './json-rpc-error';
import { JSON_RPC_MODULE_OPTIONS, type ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';
import type { JsonRpcReply } from './json-rpc.types';
import { readRawBody } from './raw-body';
import { serializeReply } from './serialize-reply';
import { extractTraceId } from './trace-id';

/**
 * POST /rpc. Needs the app created with `bodyParser: false`: the body is read here,
 * under maxBodyBytes, so that malformed or oversized input still gets a JSON-RPC error.
 */
@Controller()
export class JsonRpcHttpController {
  private readonly logger = new Logger('JsonRpc');

  constructor(
    private readonly dispatcher: JsonRpcDispatcher,
    @Inject(JSON_RPC_MODULE_OPTIONS) private readonly options: ResolvedJsonRpcModuleOptions,
  ) {}

  @Post('rpc')
  async handle(@Req() req: IncomingMessage, @Res() res: ServerResponse): Promise<void> {
    const receivedAt = Date.now();
    const traceId = extractTraceId(req.headers);
    const clientGone = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) clientGone.abort();
    });
    let reply: JsonRpcReply;
    try {
      const raw = await readRawBody(req, this.options.maxBodyBytes);
      if (raw.kind === 'too-large') {
        const error = JsonRpcError.invalidRequest(`Invalid Request: body exceeds the limit of ${raw.limit} bytes`, {
          max_body_bytes: raw.limit,
        });
        res.setHeader('Connection', 'close');
        reply = { jsonrpc: '2.0', error: error.toErrorObject(traceId), id: null };
      } else {
        reply = await this.dispatcher.dispatch(raw.body, {
          headers: req.headers,
          caller: ANONYMOUS_CALLER,
          remoteAddress: req.socket.remoteAddress,
          signal: clientGone.signal,
          receivedAt,
        });
      }
    } catch (error) {
      this.logger.error('JSON-RPC exchange failed', error instanceof Error ? error.stack : error);
      reply = { jsonrpc: '2.0', error: JsonRpcError.internalError().toErrorObject(traceId), id: null };
    }
    this.send(res, reply, traceId);
  }

  private send(res: ServerResponse, reply: JsonRpcReply, traceId: string | undefined): void {
    if (res.writableEnded || res.destroyed) return;
    const text = serializeReply(reply, {
      traceId,
      onUnserializable: (response, error) =>
        this.logger.error(`result for id ${JSON.stringify(response.id)} is not JSON-serializable`, String(error)),
    });
    if (text === undefined) {
      res.statusCode = 204;
      res.end();
      return;
    }
    const body = Buffer.from(text, 'utf8');
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  }
}
