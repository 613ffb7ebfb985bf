// gRPC server reflection on the agents, read by a plain reflection client
// (grpc.reflection.v1.ServerReflection from the .proto @grpc/reflection ships)
// and decoded with @bufbuild/protobuf, independently of how the server built its descriptors.
import assert from 'node:assert/strict';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { fromBinary } from '@bufbuild/protobuf';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { FileDescriptorProtoSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { CONTRACT_PACKAGE, CONTRACT_VERSION, CONTRACT_VERSION_OPTION } from '@s2sp/contracts';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';

const REFLECTION_PROTO = join(dirname(require.resolve('@grpc/reflection')), '..', 'proto', 'grpc', 'reflection', 'v1', 'reflection.proto');

interface ReflectionResponse {
  list_services_response?: { service: Array<{ name: string }> };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

type ReflectionStream = grpc.ClientDuplexStream<Record<string, unknown>, ReflectionResponse>;

/** One request on a fresh ServerReflectionInfo stream, its one response. */
function reflect(client: grpc.Client & { ServerReflectionInfo(): ReflectionStream }, request: Record<string, unknown>): Promise<ReflectionResponse> {
  return new Promise((resolve, reject) => {
    const stream = client.ServerReflectionInfo();
    stream.once('data', (response: ReflectionResponse) => {
      resolve(response);
      stream.end();
    });
    stream.once('error', reject);
    stream.write(request);
  });
}

/** The string value of a custom option, read from the unknown fields a generic decoder keeps for it. */
function stringOption(file: FileDescriptorProto, fieldNumber: number): string | undefined {
  const field = file.options?.$unknown?.find((unknown) => unknown.no === fieldNumber);
  if (!field) return undefined;
  assert.equal(field.wireType, WireType.LengthDelimited);
  return new BinaryReader(field.data).string();
}

describe('agents gRPC server reflection', () => {
  let agents: RunningAgents;
  let client: grpc.Client & { ServerReflectionInfo(): ReflectionStream };

  before(async () => {
    agents = await startTestAgents(agentsTestConfig([]));
    const definition = protoLoader.loadSync(REFLECTION_PROTO, { keepCase: true, longs: String, enums: String, defaults: true, oneofs: true });
    const { ServerReflection } = (grpc.loadPackageDefinition(definition) as any).grpc.reflection.v1;
    client = new ServerReflection(agents.url, grpc.credentials.createInsecure());
  });

  after(async () => {
    client?.close();
    await agents?.close();
  });

  test('lists the s2sp.v1 services and the health service', async () => {
    const response = await reflect(client, { list_services: '' });
    const names = response.list_services_response?.service.map((service) => service.name) ?? [];
    for (const expected of ['s2sp.v1.ToolService', 's2sp.v1.AgentService', 'grpc.health.v1.Health']) {
      assert.ok(names.includes(expected), `${expected} missing from ${names.join(', ')}`);
    }
  });

  test('the descriptor of ToolService carries the contract version as the (s2sp.v1.contract_version) file option', async () => {
    const response = await reflect(client, { file_containing_symbol: 's2sp.v1.ToolService' });
    assert.equal(response.error_response, undefined);
    const files = (response.file_descriptor_response?.file_descriptor_proto ?? []).map((bytes) => fromBinary(FileDescriptorProtoSchema, bytes));
    const contractFile = files.find((file) => file.service.some((service) => service.name === 'ToolService'));
    assert.ok(contractFile, `no descriptor declares ToolService among ${files.map((file) => file.name).join(', ')}`);
    assert.equal(contractFile.package, CONTRACT_PACKAGE);
    assert.equal(stringOption(contractFile, CONTRACT_VERSION_OPTION.number), CONTRACT_VERSION);
    // The option's declaration travels with it, so a client can resolve it by name.
    const declaration = contractFile.extension.find((extension) => extension.number === CONTRACT_VERSION_OPTION.number);
    assert.equal(declaration && `${contractFile.package}.${declaration.name}`, CONTRACT_VERSION_OPTION.name);
    assert.equal(declaration?.extendee, '.google.protobuf.FileOptions');
  });

  test('an unknown symbol is a NOT_FOUND error response, not a broken stream', async () => {
    const response = await reflect(client, { file_containing_symbol: 's2sp.v1.NoSuchService' });
    assert.equal(response.error_response?.error_code, grpc.status.NOT_FOUND);
  });
});
