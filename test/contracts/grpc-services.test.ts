import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, fromStruct, toStruct } from '../../libs/contracts/src';

type Decoded = Record<string, any>;
interface S2spPackage {
  s2sp: { v1: { ToolService: grpc.ServiceClientConstructor; AgentService: grpc.ServiceClientConstructor } };
}

const pkg = grpc.loadPackageDefinition(
  protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS }),
) as unknown as S2spPackage;

describe('s2sp.v1 services over a real gRPC channel', () => {
  const server = new grpc.Server();
  let toolClient: grpc.Client & Record<string, Function>;
  let agentClient: grpc.Client & Record<string, Function>;

  before(async () => {
    server.addService(pkg.s2sp.v1.ToolService.service, {
      ListTools: (call: grpc.ServerUnaryCall<Decoded, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        callback(null, {
          tools: [
            {
              name: 'get_alerts',
              server: 'weather',
              input_schema: toStruct({ type: 'object', properties: { area: { type: 'string' } } }),
              mutation_class: 'MUTATION_CLASS_READ_ONLY',
              kind: 'TOOL_KIND_S2SP_RESOURCE',
            },
          ],
          next_cursor: call.request.cursor === '' ? 'page-2' : '',
        });
      },
      InvokeTool: (_call: unknown, callback: grpc.sendUnaryData<unknown>) =>
        callback({ code: grpc.status.UNIMPLEMENTED, details: 'not in this test' }),
    });
    server.addService(pkg.s2sp.v1.AgentService.service, {
      SubmitTask: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb({ code: grpc.status.UNIMPLEMENTED }),
      GetTask: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb({ code: grpc.status.UNIMPLEMENTED }),
      CancelTask: (_c: unknown, cb: grpc.sendUnaryData<unknown>) => cb({ code: grpc.status.UNIMPLEMENTED }),
      StreamTask: (call: grpc.ServerWritableStream<Decoded, unknown>) => {
        for (let step = 1; step <= 3; step++) {
          call.write({
            task_id: call.request.task_id,
            step_number: step,
            type: 'STEP_TYPE_ACT',
            outcome: 'STEP_OUTCOME_SUCCESS',
          });
        }
        call.end();
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      ),
    );
    const address = `127.0.0.1:${port}`;
    toolClient = new pkg.s2sp.v1.ToolService(address, grpc.credentials.createInsecure());
    agentClient = new pkg.s2sp.v1.AgentService(address, grpc.credentials.createInsecure());
  });

  after(() => {
    toolClient?.close();
    agentClient?.close();
    server.forceShutdown();
  });

  test('ListTools returns descriptors with Struct schemas and string enums', async () => {
    const response = await new Promise<Decoded>((resolve, reject) =>
      toolClient.ListTools({ cursor: '', page_size: 10 }, (error: Error | null, value: Decoded) =>
        error ? reject(error) : resolve(value),
      ),
    );
    assert.equal(response.next_cursor, 'page-2');
    assert.equal(response.tools[0].mutation_class, 'MUTATION_CLASS_READ_ONLY');
    assert.deepEqual(fromStruct(response.tools[0].input_schema), {
      type: 'object',
      properties: { area: { type: 'string' } },
    });
  });

  test('StreamTask streams AgentStepResult messages', async () => {
    const steps: Decoded[] = [];
    await new Promise<void>((resolve, reject) => {
      const stream = agentClient.StreamTask({ task_id: 'task-1' }) as grpc.ClientReadableStream<Decoded>;
      stream.on('data', (step: Decoded) => steps.push(step));
      stream.on('error', reject);
      stream.on('end', () => resolve());
    });
    assert.deepEqual(
      steps.map((step) => [step.task_id, step.step_number, step.type, step.outcome]),
      [1, 2, 3].map((n) => ['task-1', n, 'STEP_TYPE_ACT', 'STEP_OUTCOME_SUCCESS']),
    );
  });

  test('gRPC status errors reach the client with their code', async () => {
    const error = await new Promise<grpc.ServiceError>((resolve) =>
      toolClient.InvokeTool({ tool_name: 'x' }, (e: grpc.ServiceError) => resolve(e)),
    );
    assert.equal(error.code, grpc.status.UNIMPLEMENTED);
  });
});
