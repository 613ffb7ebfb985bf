import { Inject, Injectable, Logger } from '@nestjs/common';
import { DEADLINE_PARAM, readDeadlineParam, resolveCallDeadline, type ExchangeDeadline } from './call-deadline';
import type { JsonRpcCallContext, JsonRpcTransportContext } from './json-rpc-call-context';
import { JsonRpcError } from './json-rpc-error';
import { acceptsEventStream, EVENT_STREAM_MEDIA_TYPE } from './json-rpc-event-stream';
import { JSON_RPC_MODULE_OPTIONS, type ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';
import { JsonRpcMethodRegistry, type RegisteredJsonRpcMethod } from './json-rpc-method-registry';
import type { JsonRpcId, JsonRpcRequest, JsonRpcResponse } from './json-rpc.types';
import { checkParamsShape } from './params-shape-limits';
import { isNotification } from './request-envelope';
import { toJsonRpcError } from './to-json-rpc-error';

/** Everything one call needs to know about the HTTP exchange that carried it. */
export interface CallExchange {
  transport: JsonRpcTransportContext;
  deadline: ExchangeDeadline;
  traceId: string | undefined;
}

/** Runs one valid request: method lookup, deadline, handler (guards, params binding, interceptors), error mapping. */
@Injectable()
export class JsonRpcCallExecutor {
  private readonly logger = new Logger('JsonRpc');

  constructor(
    private readonly registry: JsonRpcMethodRegistry,
    @Inject(JSON_RPC_MODULE_OPTIONS) private readonly options: ResolvedJsonRpcModuleOptions,
  ) {}

  /** The response for a call, or undefined for a notification (which never gets one, even on error). */
  async execute(request: JsonRpcRequest, exchange: CallExchange): Promise<JsonRpcResponse | undefined> {
    const id: JsonRpcId = request.id ?? null;
    try {
      const result = await this.run(request, exchange);
      return isNotification(request) ? undefined : { jsonrpc: '2.0', result: result ?? null, id };
    } catch (exception) {
      const { error, expected } = toJsonRpcError(exception);
      if (!expected)
        this.logger.error(`${request.method} failed`, exception instanceof Error ? exception.stack : exception);
      return isNotification(request) ? undefined : { jsonrpc: '2.0', error: error.toErrorObject(exchange.traceId), id };
    }
  }

  private async run(request: JsonRpcRequest, exchange: CallExchange): Promise<unknown> {
    const method = this.registry.get(request.method);
    if (!method) throw JsonRpcError.methodNotFound();
    if (method.metadata.streaming) checkStreamingCall(request, exchange);
    checkParamsShape(request.params, this.options);
    const deadline = resolveCallDeadline(exchange.deadline, readDeadlineParam(request.params), this.options);
    if (deadline <= Date.now()) throw JsonRpcError.deadlineExceeded('gateway.admission', { deadline_ms: deadline });
    // Bound and validated by ParamsBindingGuard, after the guards that decide who may call.
    return this.invokeWithin(method, withoutDeadline(request.params), request, exchange, deadline);
  }

  private async invokeWithin(
    method: RegisteredJsonRpcMethod,
    params: unknown,
    request: JsonRpcRequest,
    exchange: CallExchange,
    deadline: number,
  ): Promise<unknown> {
    const controller = new AbortController();
    let rejectAborted!: (reason: unknown) => void;
    const aborted = new Promise<never>((_, reject) => (rejectAborted = reject));
    const abort = (reason: unknown): void => {
      controller.abort(reason);
      rejectAborted(reason);
    };
    // The error is built only when the deadline fires: an Error captures a stack trace.
    const timer = setTimeout(
      () => abort(JsonRpcError.deadlineExceeded('gateway.handler', { deadline_ms: deadline })),
      Math.max(0, deadline - Date.now()),
    );
    const onClientGone = (): void => abort(JsonRpcError.internalError());
    if (exchange.transport.signal?.aborted) onClientGone();
    else exchange.transport.signal?.addEventListener('abort', onClientGone, { once: true });
    const ctx: JsonRpcCallContext = {
      method: request.method,
      id: request.id,
      isNotification: isNotification(request),
      headers: exchange.transport.headers,
      caller: exchange.transport.caller,
      remoteAddress: exchange.transport.remoteAddress,
      signal: controller.signal,
      deadline,
      traceId: exchange.traceId,
      remainingMs: () => Math.max(0, deadline - Date.now()),
    };
    try {
      // The handler is not awaited past the deadline; it learns about it through ctx.signal.
      return await Promise.race([method.invoke(params, ctx), aborted]);
    } finally {
      clearTimeout(timer);
      exchange.transport.signal?.removeEventListener('abort', onClientGone);
    }
  }
}

/** A streaming method answers on the exchange itself: alone, to a caller that takes Server-Sent Events. */
function checkStreamingCall(request: JsonRpcRequest, exchange: CallExchange): void {
  if (exchange.deadline.isBatch || isNotification(request)) {
    throw JsonRpcError.invalidRequest(
      `Invalid Request: ${request.method} streams its answer and cannot be called in a batch or as a notification`,
    );
  }
  if (!acceptsEventStream(exchange.transport.headers)) {
    throw JsonRpcError.invalidRequest(
      `Invalid Request: ${request.method} streams its answer; send Accept: ${EVENT_STREAM_MEDIA_TYPE}`,
      {
        accept: EVENT_STREAM_MEDIA_TYPE,
      },
    );
  }
}

/** deadline_ms belongs to the gateway (every method accepts it, the gateway consumes it), not to the method's params. */
function withoutDeadline(params: JsonRpcRequest['params']): JsonRpcRequest['params'] {
  if (params === undefined || Array.isArray(params) || !Object.prototype.hasOwnProperty.call(params, DEADLINE_PARAM)) {
    return params;
  }
  const { [DEADLINE_PARAM]: _deadline, ...rest } = params;
  return rest;
}
