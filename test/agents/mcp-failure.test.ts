import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { status } from '@grpc/grpc-js';
import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { toGrpcError } from '../../apps/agents/src/grpc/grpc-errors';
import { isBreakerFailure, translateMcpFailure } from '../../apps/agents/src/mcp/mcp-failure';

const context = { serverId: 'stats', startedAt: Date.now(), timeoutMs: 1_000 };
const grpcStatusOf = (error: Error): number => (toGrpcError(error).getError() as { code: number }).code;

describe("an MCP server's per-server circuit breaker counts its faults, not a caller's input", () => {
  test('refused params and requests too large for the server are INVALID_ARGUMENT and no breaker failure', () => {
    for (const failure of [
      new McpError(ErrorCode.InvalidParams, 'arguments.text: expected string'),
      new StreamableHTTPError(413, 'Payload Too Large'),
      new StreamableHTTPError(414, 'URI Too Long'),
    ]) {
      const translated = translateMcpFailure(failure, context);
      assert.equal(isBreakerFailure(translated), false, String(failure));
      assert.equal(grpcStatusOf(translated), status.INVALID_ARGUMENT, String(failure));
    }
  });

  test('server errors, timeouts and lost connections are UNAVAILABLE / DEADLINE_EXCEEDED and count', () => {
    for (const [failure, code] of [
      [new StreamableHTTPError(503, 'Service Unavailable'), status.UNAVAILABLE],
      [new StreamableHTTPError(500, 'Internal Server Error'), status.UNAVAILABLE],
      [new McpError(ErrorCode.RequestTimeout, 'timed out'), status.DEADLINE_EXCEEDED],
      [new McpError(ErrorCode.ConnectionClosed, 'closed'), status.UNAVAILABLE],
      [new TypeError('fetch failed'), status.UNAVAILABLE],
    ] as const) {
      const translated = translateMcpFailure(failure, context);
      assert.equal(isBreakerFailure(translated), true, String(failure));
      assert.equal(grpcStatusOf(translated), code, String(failure));
    }
  });
});
