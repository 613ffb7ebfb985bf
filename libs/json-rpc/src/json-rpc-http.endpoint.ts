import { Inject, Injectable, Logger, Optional, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { nodeRequestOf, nodeResponseOf, takeNodeResponse } from '@s2sp/platform/internal';
import { HttpExchangeTelemetry, type HttpRoutePlan } from '@s2sp/telemetry';
import { ANONYMOUS_CALLER } from './json-rpc-call-context';
import { JsonRpcDispatcher } from './json-rpc-dispatcher';
import { JsonRpcError } from './json-rpc-error';
import { JSON_RPC_MODULE_OPTIONS, type ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';
import type { JsonRpcReply } from './json-rpc.types';
import { readRawBody } from './raw-body';
import { serializeReply } from './serialize-reply';
import { isEventStreamReply, writeEventStream } from './write-event-stream';
import { extractTraceId } from './trace-id';

export const JSON_RPC_PATH = '/rpc';

/**
 * POST /rpc, mounted on the HTTP adapter itself rather than as a Nest controller,
 * the way GraphQL drivers mount their endpoint: the JSON-RPC methods get Nest's
 * guards, interceptors and filters per call (JsonRpcCallExecutor), so the route
 * pipeline around the whole exchange would only add cost to every call.
 *
 * The body is read here, under maxBodyBytes, so that malformed or oversized input
 * still gets a JSON-RPC error. On Fastify the route answers from its onRequest hook
 * (app-wide onRequest hooks run first; preParsing, preValidation and preHandler hooks
 * do not, nor does any content-type parser); on Express create the app with `bodyParser: false`.
 * With TelemetryModule imported, each exchange is a `POST /rpc` SERVER span with the HTTP metrics.
 * A `streaming` method's answer (JsonRpcEventStream) is written as Server-Sent Events (write-event-stream.ts).
 */
@Injectable()
export class JsonRpcHttpEndpoint implements OnModuleInit {
  private readonly logger = new Logger('JsonRpc');
  /** How each exchange is recorded, when TelemetryModule is imported. */
  private readonly telemetry?: { readonly exchanges: HttpExchangeTelemetry; readonly plan: HttpRoutePlan };

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly dispatcher: JsonRpcDispatcher,
    @Inject(JSON_RPC_MODULE_OPTIONS) private readonly options: ResolvedJsonRpcModuleOptions,
    @Optional() exchanges?: HttpExchangeTelemetry,
  ) {
    if (exchanges) this.telemetry = { exchanges, plan: exchanges.planFor('POST', JSON_RPC_PATH, JSON_RPC_PATH) };
  }

  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    if (!adapter) return; // a microservice or standalone context: nothing to serve
    const serve = (request: unknown, response: unknown): void => {
      this.serve(nodeRequestOf(request), nodeResponseOf(response)).catch((error: unknown) =>
        this.logger.error('JSON-RPC exchange failed', error instanceof Error ? error.stack : error),
      );
    };
    if (adapter.getType() === 'fastify') {
      const fastify = adapter.getInstance<FastifyInstance>();
      fastify.register(async (scope) => {
        scope.route({
          method: 'POST',
          url: JSON_RPC_PATH,
          // Answered from the route's onRequest hook: the app's onRequest hooks have run,
          // and the hijacked reply ends the lifecycle before content-type parsing and the
          // body hooks, which cost per call and have no body to look at here.
          onRequest: (request, reply, done) => {
            // The response is written on the node object (the reply hijacked, the headers
            // the app's hooks set on it kept).
            serve(request, takeNodeResponse(reply));
            done();
          },
          handler: () => undefined,
        });
      });
    } else {
      adapter.post(JSON_RPC_PATH, serve);
    }
  }

  private serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const telemetry = this.telemetry;
    if (!telemetry) return this.handle(req, res);
    return telemetry.exchanges.observe(telemetry.plan, req, res, () => this.handle(req, res));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
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
    if (isEventStreamReply(reply))
      return writeEventStream(res, reply, { traceId, clientGone: clientGone.signal, logger: this.logger });
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
