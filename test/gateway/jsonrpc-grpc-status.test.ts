import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Metadata, status } from '@grpc/grpc-js';
import { GRPC_ERROR_METADATA, JsonRpcError, RECOVERY_HINT, grpcStatusToJsonRpc, toJsonRpcError } from '@s2sp/json-rpc';

const wire = (error: JsonRpcError) => error.toErrorObject();

describe('grpcStatusToJsonRpc', () => {
  test('the agreed mapping of every status', () => {
    const expected: Array<[status, number]> = [
      [status.INVALID_ARGUMENT, -32602],
      [status.NOT_FOUND, -32602],
      [status.ALREADY_EXISTS, -32602],
      [status.DEADLINE_EXCEEDED, -32000],
      [status.UNAUTHENTICATED, 4001],
      [status.PERMISSION_DENIED, 4002],
      [status.RESOURCE_EXHAUSTED, 5001],
      [status.UNAVAILABLE, -32001],
      [status.FAILED_PRECONDITION, 1004],
      [status.ABORTED, 1005],
      [status.OK, -32603],
      [status.CANCELLED, -32603],
      [status.UNKNOWN, -32603],
      [status.OUT_OF_RANGE, -32603],
      [status.UNIMPLEMENTED, -32603],
      [status.INTERNAL, -32603],
      [status.DATA_LOSS, -32603],
    ];
    assert.equal(expected.length, 17, 'all 17 gRPC status codes');
    for (const [grpcStatus, code] of expected) {
      assert.equal(grpcStatusToJsonRpc(grpcStatus, 'detail').code, code, status[grpcStatus]);
    }
  });

  test('UNAVAILABLE carries RETRY_WITH_BACKOFF', () => {
    assert.deepEqual(wire(grpcStatusToJsonRpc(status.UNAVAILABLE, 'connect ECONNREFUSED')), {
      code: -32001,
      message: 'Upstream service unavailable',
      data: { recovery_hint: 'RETRY_WITH_BACKOFF' },
    });
  });

  test('caller-facing details are kept; internal ones are not', () => {
    assert.equal(
      (wire(grpcStatusToJsonRpc(status.INVALID_ARGUMENT, 'task_id must be a UUID')).data as any).reason,
      'task_id must be a UUID',
    );
    assert.deepEqual(wire(grpcStatusToJsonRpc(status.INTERNAL, 'NullPointerException at Foo.java:12')), {
      code: -32603,
      message: 'Internal error',
    });
  });

  test('DEADLINE_EXCEEDED names the hop from metadata, else "upstream"', () => {
    const metadata = new Metadata();
    metadata.set(GRPC_ERROR_METADATA.DEADLINE_HOP, 'agent.planner');
    assert.equal((wire(grpcStatusToJsonRpc(status.DEADLINE_EXCEEDED, '', metadata)).data as any).hop, 'agent.planner');
    assert.equal((wire(grpcStatusToJsonRpc(status.DEADLINE_EXCEEDED, '')).data as any).hop, 'upstream');
  });

  test('UNAVAILABLE passes on the retry-after seconds and recovery hint the agents sent', () => {
    const metadata = new Metadata();
    metadata.set(GRPC_ERROR_METADATA.RETRY_AFTER, '1');
    metadata.set(GRPC_ERROR_METADATA.RECOVERY_HINT, RECOVERY_HINT.RETRY_AFTER);
    assert.deepEqual(wire(grpcStatusToJsonRpc(status.UNAVAILABLE, "the agents' database is unavailable", metadata)), {
      code: -32001,
      message: 'Upstream service unavailable',
      data: { recovery_hint: 'RETRY_AFTER', retry_after: 1 },
    });
  });

  test('RESOURCE_EXHAUSTED reads retry-after seconds (default 1)', () => {
    const metadata = new Metadata();
    metadata.set(GRPC_ERROR_METADATA.RETRY_AFTER, '12');
    assert.equal((wire(grpcStatusToJsonRpc(status.RESOURCE_EXHAUSTED, 'quota', metadata)).data as any).retry_after, 12);
    assert.equal((wire(grpcStatusToJsonRpc(status.RESOURCE_EXHAUSTED, 'quota')).data as any).retry_after, 1);
  });

  test('metadata refines agent execution codes, approval and recovery hint; trace id is carried', () => {
    const metadata = new Metadata();
    metadata.set(GRPC_ERROR_METADATA.ERROR_CODE, '1003');
    metadata.set(GRPC_ERROR_METADATA.RECOVERY_HINT, 'REDUCE_DECOMPOSITION_GRANULARITY');
    metadata.set(GRPC_ERROR_METADATA.TRACEPARENT, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    assert.deepEqual(
      wire(grpcStatusToJsonRpc(status.FAILED_PRECONDITION, 'Agent recursion depth exceeded', metadata)),
      {
        code: 1003,
        message: 'Agent recursion depth exceeded',
        data: { trace_id: '4bf92f3577b34da6a3ce929d0e0e4736', recovery_hint: 'REDUCE_DECOMPOSITION_GRANULARITY' },
      },
    );
    const outOfRange = new Metadata();
    outOfRange.set(GRPC_ERROR_METADATA.ERROR_CODE, '4003');
    assert.equal(
      grpcStatusToJsonRpc(status.ABORTED, '', outOfRange).code,
      1005,
      'only 1xxx codes refine FAILED_PRECONDITION/ABORTED',
    );
    assert.equal(grpcStatusToJsonRpc(status.PERMISSION_DENIED, 'needs a human', outOfRange).code, 4003);
  });

  test('PERMISSION_DENIED names the scopes of x-s2sp-missing-scopes as data.missing_scopes, each once', () => {
    const metadata = new Metadata();
    metadata.set(GRPC_ERROR_METADATA.MISSING_SCOPES, ' s2sp:activity:read  tools:call s2sp:activity:read ');
    assert.deepEqual(wire(grpcStatusToJsonRpc(status.PERMISSION_DENIED, 'Missing required scopes', metadata)), {
      code: 4002,
      message: 'Insufficient scope',
      data: {
        reason: 'Missing required scopes',
        recovery_hint: RECOVERY_HINT.REQUEST_ADDITIONAL_SCOPE,
        missing_scopes: ['s2sp:activity:read', 'tools:call'],
      },
    });
    assert.equal(
      (wire(grpcStatusToJsonRpc(status.PERMISSION_DENIED, 'refused')).data as any).missing_scopes,
      undefined,
      'none named: none invented',
    );
    const approval = new Metadata();
    approval.set(GRPC_ERROR_METADATA.ERROR_CODE, '4003');
    approval.set(GRPC_ERROR_METADATA.MISSING_SCOPES, 'tools:call');
    assert.equal(grpcStatusToJsonRpc(status.PERMISSION_DENIED, 'needs a human', approval).code, 4003);
  });

  test('application errors get a recovery hint and trace id; standard ones only the trace id', () => {
    assert.deepEqual(grpcStatusToJsonRpc(status.UNAUTHENTICATED, 'token expired').toErrorObject('t-1'), {
      code: 4001,
      message: 'Authentication failed',
      data: { reason: 'token expired', recovery_hint: 'AUTHENTICATE', trace_id: 't-1' },
    });
    assert.deepEqual(JsonRpcError.methodNotFound().toErrorObject('t-1'), {
      code: -32601,
      message: 'Method not found',
      data: { trace_id: 't-1' },
    });
  });
});

describe('toJsonRpcError', () => {
  test('recognises gRPC ServiceErrors thrown by clients', () => {
    const serviceError = Object.assign(new Error('5 NOT_FOUND: task t-9'), {
      code: status.NOT_FOUND,
      details: 'task t-9',
      metadata: new Metadata(),
    });
    const { error, expected } = toJsonRpcError(serviceError);
    assert.equal(error.code, -32602);
    assert.equal(expected, true);
  });

  test('a database that cannot be reached is -32001 naming the database, retry after 1 s, and is logged', () => {
    const unreachable = Object.assign(new Error("Can't reach database server at 127.0.0.1:5432"), { code: 'P1001' });
    const { error, expected } = toJsonRpcError(unreachable);
    assert.deepEqual(wire(error), {
      code: -32001,
      message: 'Upstream service unavailable',
      data: { downstream: 'database', retry_after: 1, recovery_hint: 'RETRY_AFTER' },
    });
    assert.equal(expected, false, 'an outage is logged');
  });

  test('anything else is an unexpected internal error', () => {
    for (const thrown of [new Error('boom'), 'string', 42, null, { code: 99 }]) {
      const { error, expected } = toJsonRpcError(thrown);
      assert.equal(error.code, -32603);
      assert.equal(expected, false);
    }
  });
});
