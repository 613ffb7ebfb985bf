import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Metadata, status } from '@grpc/grpc-js';
import { GRPC_ERROR_METADATA } from '@s2sp/contracts';
import {
  InsufficientScopeError,
  ProtocolError,
  ProtocolErrorCode,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
} from '@modelcontextprotocol/client';
import { toGrpcError } from '../../libs/agents/src/grpc/grpc-errors';
import { isBreakerFailure, translateMcpFailure } from '../../libs/agents/src/mcp/mcp-failure';

const context = { serverId: 'stats', startedAt: Date.now(), timeoutMs: 1_000 };
const httpError = (status: number) =>
  new SdkHttpError(SdkErrorCode.ClientHttpNotImplemented, `Error POSTing to endpoint: HTTP ${status}`, { status });
const grpcStatusOf = (error: Error): number => (toGrpcError(error).getError() as { code: number }).code;

describe("an MCP server's per-server circuit breaker counts its faults, not a caller's input", () => {
  test('refused params and requests too large for the server are INVALID_ARGUMENT and no breaker failure', () => {
    for (const failure of [
      new ProtocolError(ProtocolErrorCode.InvalidParams, 'arguments.text: expected string'),
      httpError(413),
      httpError(414),
    ]) {
      const translated = translateMcpFailure(failure, context);
      assert.equal(isBreakerFailure(translated), false, String(failure));
      assert.equal(grpcStatusOf(translated), status.INVALID_ARGUMENT, String(failure));
    }
  });

  test('server errors, timeouts and lost connections are UNAVAILABLE / DEADLINE_EXCEEDED and count', () => {
    for (const [failure, code] of [
      [httpError(503), status.UNAVAILABLE],
      [httpError(500), status.UNAVAILABLE],
      [new SdkError(SdkErrorCode.RequestTimeout, 'timed out'), status.DEADLINE_EXCEEDED],
      [new SdkError(SdkErrorCode.ConnectionClosed, 'closed'), status.UNAVAILABLE],
      [new TypeError('fetch failed'), status.UNAVAILABLE],
    ] as const) {
      const translated = translateMcpFailure(failure, context);
      assert.equal(isBreakerFailure(translated), true, String(failure));
      assert.equal(grpcStatusOf(translated), code, String(failure));
    }
  });
});

describe("an MCP server's refusal reaches the gateway as a refusal", () => {
  const trailers = (error: Error) => (toGrpcError(error).getError() as { metadata: Metadata }).metadata;

  test('4002 is PERMISSION_DENIED naming the well-formed scopes of its data.missing_scopes (x-s2sp-missing-scopes)', () => {
    const refusal = new ProtocolError(4002, 'Missing required scope: s2sp:activity:read', {
      missing_scopes: ['s2sp:activity:read', 'has space', '', 42, 'x'.repeat(300), 's2sp:activity:read', 'tools:call'],
    });
    const translated = translateMcpFailure(refusal, context);
    assert.equal(isBreakerFailure(translated), false);
    assert.equal(grpcStatusOf(translated), status.PERMISSION_DENIED);
    assert.deepEqual(trailers(translated).get(GRPC_ERROR_METADATA.MISSING_SCOPES), ['s2sp:activity:read tools:call']);
  });

  test('a refusal whose data names no scopes (or is not an object) sends no x-s2sp-missing-scopes', () => {
    for (const data of [undefined, null, 'tools:call', { missing_scopes: 'tools:call' }, { missing_scopes: [] }]) {
      const translated = translateMcpFailure(new ProtocolError(4002, 'refused', data), context);
      assert.deepEqual(trailers(translated).get(GRPC_ERROR_METADATA.MISSING_SCOPES), [], JSON.stringify(data));
    }
  });

  test('an HTTP 403 insufficient_scope is PERMISSION_DENIED naming the challenge scopes, no breaker failure', () => {
    const challenge = new InsufficientScopeError({ requiredScope: 'weather:read has"quote s2sp:data:read' });
    const translated = translateMcpFailure(challenge, context);
    assert.equal(isBreakerFailure(translated), false);
    assert.equal(grpcStatusOf(translated), status.PERMISSION_DENIED);
    assert.deepEqual(trailers(translated).get(GRPC_ERROR_METADATA.MISSING_SCOPES), ['weather:read s2sp:data:read']);
  });

  test('4003 is PERMISSION_DENIED with x-s2sp-error-code 4003, so the gateway answers approval required', () => {
    const translated = translateMcpFailure(new ProtocolError(4003, 'Approval required'), context);
    assert.equal(grpcStatusOf(translated), status.PERMISSION_DENIED);
    assert.deepEqual(trailers(translated).get(GRPC_ERROR_METADATA.ERROR_CODE), ['4003']);
  });
});

describe("the agents' database out of reach", () => {
  test('is UNAVAILABLE with retry-after 1 and RETRY_AFTER, never INTERNAL', () => {
    const unreachable = Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' });
    const exception = toGrpcError(unreachable).getError() as { code: number; details: string; metadata: Metadata };
    assert.equal(exception.code, status.UNAVAILABLE);
    assert.match(exception.details, /database is unavailable/);
    assert.doesNotMatch(exception.details, /127\.0\.0\.1/, 'no internals reach the caller');
    assert.deepEqual(exception.metadata.get(GRPC_ERROR_METADATA.RETRY_AFTER), ['1']);
    assert.deepEqual(exception.metadata.get(GRPC_ERROR_METADATA.RECOVERY_HINT), ['RETRY_AFTER']);
  });
});
