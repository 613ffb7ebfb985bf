import { Inject, Injectable } from '@nestjs/common';
import { DEADLINE_HEADER, readDeadlineHeader } from './call-deadline';
import { mapWithConcurrency } from './bounded-concurrency';
import type { JsonRpcTransportContext } from './json-rpc-call-context';
import { JsonRpcCallExecutor, type CallExchange } from './json-rpc-call-executor';
import { JsonRpcError } from './json-rpc-error';
import { JSON_RPC_MODULE_OPTIONS, type ResolvedJsonRpcModuleOptions } from './json-rpc-module-options';
import type { JsonRpcErrorResponse, JsonRpcId, JsonRpcReply, JsonRpcResponse } from './json-rpc.types';
import { checkEnvelope, isNotification } from './request-envelope';
import { extractTraceId } from './trace-id';

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Transport-agnostic JSON-RPC 2.0 server core: payload text in, reply out
 * (undefined when there is nothing to send back).
 */
@Injectable()
export class JsonRpcDispatcher {
  constructor(
    private readonly executor: JsonRpcCallExecutor,
    @Inject(JSON_RPC_MODULE_OPTIONS) private readonly options: ResolvedJsonRpcModuleOptions,
  ) {}

  async dispatch(body: string | Uint8Array, transport: JsonRpcTransportContext): Promise<JsonRpcReply> {
    const traceId = extractTraceId(transport.headers);
    const payload = parse(body);
    if (payload === PARSE_FAILED) return errorResponse(JsonRpcError.parseError(), null, traceId);
    const header = readHeaderDeadline(transport);
    if (!Array.isArray(payload)) return this.handleOne(payload, { transport, traceId, header, isBatch: false });

    if (payload.length === 0) return errorResponse(JsonRpcError.invalidRequest(), null, traceId);
    if (payload.length > this.options.maxBatchSize) {
      const limit = this.options.maxBatchSize;
      const error = JsonRpcError.invalidRequest(
        `Invalid Request: batch of ${payload.length} requests exceeds the limit of ${limit}`,
        { max_batch_size: limit, batch_size: payload.length },
      );
      return errorResponse(error, null, traceId);
    }
    const exchange: Exchange = { transport, traceId, header, isBatch: true };
    const responses = await mapWithConcurrency(payload, this.options.batchConcurrency, (item) =>
      this.handleOne(item, exchange),
    );
    const sent = responses.filter((response): response is JsonRpcResponse => response !== undefined);
    return sent.length > 0 ? sent : undefined;
  }

  private async handleOne(item: unknown, exchange: Exchange): Promise<JsonRpcResponse | undefined> {
    const envelope = checkEnvelope(item);
    if (!envelope.valid) return errorResponse(JsonRpcError.invalidRequest(), envelope.id, exchange.traceId);
    const { request } = envelope;
    const { transport, traceId, header, isBatch } = exchange;
    if (header instanceof JsonRpcError) {
      return isNotification(request) ? undefined : errorResponse(header, request.id ?? null, traceId);
    }
    const call: CallExchange = {
      transport,
      traceId,
      deadline: { receivedAt: transport.receivedAt, requested: header, isBatch },
    };
    return this.executor.execute(request, call);
  }
}

interface Exchange {
  transport: JsonRpcTransportContext;
  traceId: string | undefined;
  /** The X-Deadline-Ms value, or the error that makes every call of the exchange fail. */
  header: number | undefined | JsonRpcError;
  isBatch: boolean;
}

function readHeaderDeadline(transport: JsonRpcTransportContext): number | undefined | JsonRpcError {
  try {
    return readDeadlineHeader(transport.headers[DEADLINE_HEADER]);
  } catch (error) {
    return error as JsonRpcError;
  }
}

const PARSE_FAILED = Symbol('parse failed');

function parse(body: string | Uint8Array): unknown {
  try {
    const text = typeof body === 'string' ? body : utf8.decode(body);
    return JSON.parse(text);
  } catch {
    return PARSE_FAILED;
  }
}

function errorResponse(error: JsonRpcError, id: JsonRpcId, traceId: string | undefined): JsonRpcErrorResponse {
  return { jsonrpc: '2.0', error: error.toErrorObject(traceId), id };
}
