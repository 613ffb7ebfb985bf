import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { GRPC_ERROR_METADATA, toStruct } from '@s2sp/contracts';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';
import { connectAgents, grpc, trailer, unary, type AgentsClients } from '../support/agents-grpc-client';
import { CapturedLogs } from '../support/captured-logs';
import { startTestMcpServer, type TestMcpServer } from '../support/test-mcp-server';
import { bearerFor } from '../support/tokens';

// Hand-made protobuf wire bytes: protobufjs itself refuses to encode a Struct this deep,
// but a client that bypasses the gateway need not use protobufjs.
function varint(value: number): Buffer {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push((value & 0x7f) | 0x80);
    value >>>= 7;
  }
  bytes.push(value);
  return Buffer.from(bytes);
}

function lengthDelimited(field: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((field << 3) | 2), varint(payload.length), payload]);
}

/** google.protobuf.Struct {"a": {"a": ... {}}} nested `depth` JSON levels (two protobuf levels each). */
function deepStruct(depth: number): Buffer {
  let struct: Buffer = Buffer.alloc(0);
  for (let level = 1; level < depth; level++) {
    const value = lengthDelimited(5, struct); // Value.struct_value
    const entry = Buffer.concat([lengthDelimited(1, Buffer.from('a')), lengthDelimited(2, value)]); // map entry
    struct = lengthDelimited(1, entry); // Struct.fields
  }
  return struct;
}

/** ToolInvocationRequest { tool_name = 2, input_params = 4 }. */
function invokeToolBytes(tool: string, inputParams: Buffer): Buffer {
  return Buffer.concat([lengthDelimited(2, Buffer.from(tool)), lengthDelimited(4, inputParams)]);
}

/** SubmitTaskRequest { task = 1: AgentTask { plan = 11: PlanStep { step_id = 1, resource_call = 10: { tool = 1, server = 2, arguments = 3 } } } }. */
function submitTaskBytes(arguments_: Buffer): Buffer {
  const resourceCall = Buffer.concat([
    lengthDelimited(1, Buffer.from('echo')),
    lengthDelimited(2, Buffer.from('testkit')),
    lengthDelimited(3, arguments_),
  ]);
  const step = Buffer.concat([lengthDelimited(1, Buffer.from('a')), lengthDelimited(10, resourceCall)]);
  return lengthDelimited(1, lengthDelimited(11, step));
}

describe('agents: requests protobuf cannot decode are the caller’s error', () => {
  const logs = new CapturedLogs();
  let testkit: TestMcpServer;
  let agents: RunningAgents;
  let clients: AgentsClients;
  let raw: grpc.Client;
  let authorization: string;

  before(async () => {
    testkit = await startTestMcpServer();
    agents = await startTestAgents(agentsTestConfig([{ id: 'testkit', url: testkit.mcpUrl }]), {
      logger: logs.logger,
    });
    clients = connectAgents(agents.url);
    raw = new grpc.Client(agents.url, grpc.credentials.createInsecure());
    authorization = await bearerFor({ audience: 'agents' });
  });
  after(async () => {
    raw?.close();
    clients?.close();
    await agents?.close();
    await testkit?.close();
  });

  function rawCall(path: string, bytes: Buffer): Promise<grpc.ServiceError> {
    const metadata = new grpc.Metadata();
    metadata.set('authorization', authorization);
    return new Promise((resolve, reject) =>
      raw.makeUnaryRequest(
        path,
        (buffer: Buffer) => buffer,
        (buffer: Buffer) => buffer,
        bytes,
        metadata,
        (error) => (error ? resolve(error) : reject(new Error(`${path} answered`))),
      ),
    );
  }

  test('a Struct nested past protobuf’s recursion limit is INVALID_ARGUMENT, not INTERNAL, on every method it can reach', async () => {
    for (const [path, bytes] of [
      ['/s2sp.v1.ToolService/InvokeTool', invokeToolBytes('echo', deepStruct(80))],
      ['/s2sp.v1.AgentService/SubmitTask', submitTaskBytes(deepStruct(80))],
    ] as const) {
      const error = await rawCall(path, bytes);
      assert.equal(error.code, grpc.status.INVALID_ARGUMENT, `${path}: ${error.details}`);
      assert.match(error.details, /^request: could not be decoded \(.*recursion limit.*\)$/);
      assert.equal(trailer(error, GRPC_ERROR_METADATA.RECOVERY_HINT), 'FIX_REQUEST');
    }
    assert.deepEqual(logs.errorsOrStacks(), []);
  });

  test('they reach no MCP server and open no circuit: a well-formed call afterwards goes through', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      assert.equal(
        (await rawCall('/s2sp.v1.ToolService/InvokeTool', invokeToolBytes('echo', deepStruct(80)))).code,
        grpc.status.INVALID_ARGUMENT,
      );
    }
    const { servers } = await unary(clients.tools, 'ListServers', {});
    assert.equal(servers[0].circuit, 'CIRCUIT_STATE_CLOSED');
    const answer = await unary(clients.tools, 'InvokeTool', {
      tool_name: 'echo',
      input_params: toStruct({ text: 'still here' }),
    });
    assert.equal(answer.status, 'TOOL_RESULT_STATUS_SUCCESS');
  });

  test('a request without credentials is refused as such before its bytes are looked at', async () => {
    const error = await new Promise<grpc.ServiceError>((resolve, reject) =>
      raw.makeUnaryRequest(
        '/s2sp.v1.ToolService/InvokeTool',
        (buffer: Buffer) => buffer,
        (buffer: Buffer) => buffer,
        invokeToolBytes('echo', deepStruct(80)),
        new grpc.Metadata(),
        (failure) => (failure ? resolve(failure) : reject(new Error('answered'))),
      ),
    );
    assert.equal(error.code, grpc.status.UNAUTHENTICATED);
  });
});
