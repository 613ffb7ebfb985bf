// gRPC server reflection on the agents, read by a plain reflection client
// (grpc.reflection.v1 and v1alpha from the .proto files @grpc/reflection ships)
// and decoded with @bufbuild/protobuf, independently of how the server keeps its
// descriptors. It resolves files the way grpcurl describe does: the file of a
// symbol, then each import by name with file_by_filename.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { create, createFileRegistry, fromBinary, getOption } from '@bufbuild/protobuf';
import { FileDescriptorProtoSchema, FileDescriptorSetSchema, type FileDescriptorProto } from '@bufbuild/protobuf/wkt';
import { PACKAGE_CONTRACT_VERSIONS } from '@s2sp/contracts';
import { PROTO_ROOT } from '@s2sp/contracts/internal';
import { CONTRACT_PACKAGE, CONTRACT_VERSION_OPTION } from '../../libs/contracts/src/contract-version';
import {
  REFLECTION_VERSIONS,
  reflectionProtoPath,
  type ReflectionVersion,
} from '../../libs/agents/src/reflection/contract-reflection';
import { agentsTestConfig, startTestAgents, type RunningAgents } from '../support/agents-stack';

interface ReflectionResponse {
  list_services_response?: { service: Array<{ name: string }> };
  file_descriptor_response?: { file_descriptor_proto: Buffer[] };
  error_response?: { error_code: number; error_message: string };
}

type ReflectionStream = grpc.ClientDuplexStream<Record<string, unknown>, ReflectionResponse>;
type ReflectionClient = grpc.Client & { ServerReflectionInfo(): ReflectionStream };

/** One request on a fresh ServerReflectionInfo stream, its one response. */
function reflect(client: ReflectionClient, request: Record<string, unknown>): Promise<ReflectionResponse> {
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

/** The descriptors of a file_descriptor_response, decoded; fails on an error response. */
async function fetchFiles(client: ReflectionClient, request: Record<string, unknown>): Promise<FileDescriptorProto[]> {
  const response = await reflect(client, request);
  assert.equal(
    response.error_response,
    undefined,
    `${JSON.stringify(request)}: ${response.error_response?.error_message}`,
  );
  return (response.file_descriptor_response?.file_descriptor_proto ?? []).map((bytes) =>
    fromBinary(FileDescriptorProtoSchema, bytes),
  );
}

/** The files a .proto source imports, read from its text. */
function importsOf(protoFile: string): string[] {
  return [...readFileSync(join(PROTO_ROOT, protoFile), 'utf8').matchAll(/^import\s+"([^"]+)";/gm)].map(
    (match) => match[1],
  );
}

/** The files ordered as a descriptor set orders them: each after the files it imports. */
function dependenciesFirst(files: ReadonlyMap<string, FileDescriptorProto>): FileDescriptorProto[] {
  const ordered = new Map<string, FileDescriptorProto>();
  const visit = (file: FileDescriptorProto): void => {
    if (ordered.has(file.name)) return;
    for (const dependency of file.dependency) visit(files.get(dependency)!);
    ordered.set(file.name, file);
  };
  for (const file of files.values()) visit(file);
  return [...ordered.values()];
}

describe('agents gRPC server reflection', () => {
  let agents: RunningAgents;
  const clients = new Map<ReflectionVersion, ReflectionClient>();
  const v1 = (): ReflectionClient => clients.get('v1')!;

  before(async () => {
    agents = await startTestAgents(agentsTestConfig([]));
    for (const version of REFLECTION_VERSIONS) {
      const definition = protoLoader.loadSync(reflectionProtoPath(version), {
        keepCase: true,
        longs: String,
        enums: String,
        defaults: true,
        oneofs: true,
      });
      const { ServerReflection } = (grpc.loadPackageDefinition(definition) as any).grpc.reflection[version];
      clients.set(version, new ServerReflection(agents.url, grpc.credentials.createInsecure()));
    }
  });

  after(async () => {
    for (const client of clients.values()) client.close();
    await agents?.close();
  });

  for (const version of REFLECTION_VERSIONS) {
    test(`${version} lists the s2sp.v1 and s2sp.v2 services and the health service`, async () => {
      const response = await reflect(clients.get(version)!, { list_services: '' });
      const names = response.list_services_response?.service.map((service) => service.name) ?? [];
      for (const expected of [
        's2sp.v1.ToolService',
        's2sp.v1.AgentService',
        's2sp.v2.ToolService',
        's2sp.v2.AgentService',
        'grpc.health.v1.Health',
      ]) {
        assert.ok(names.includes(expected), `${expected} missing from ${names.join(', ')}`);
      }
    });
  }

  test('the file of AgentService is s2sp/v1/agent.proto, naming its imports, each of which can be fetched by name', async () => {
    const [agentFile] = await fetchFiles(v1(), { file_containing_symbol: 's2sp.v1.AgentService' });
    assert.equal(agentFile?.name, 's2sp/v1/agent.proto');
    assert.ok(agentFile.service.some((service) => service.name === 'AgentService'));
    assert.deepEqual([...agentFile.dependency].sort(), importsOf('s2sp/v1/agent.proto').sort());

    // grpcurl describe: every import, and theirs in turn, by file_by_filename.
    const fetched = new Map<string, FileDescriptorProto>([[agentFile.name, agentFile]]);
    const pending = [...agentFile.dependency];
    for (let name = pending.pop(); name !== undefined; name = pending.pop()) {
      if (fetched.has(name)) continue;
      const [file] = await fetchFiles(v1(), { file_by_filename: name });
      assert.equal(file?.name, name);
      fetched.set(name, file);
      pending.push(...file.dependency);
    }
    for (const expected of [
      's2sp/v1/contract.proto',
      's2sp/v1/tool.proto',
      'google/protobuf/descriptor.proto',
      'google/protobuf/struct.proto',
    ]) {
      assert.ok(fetched.has(expected), `${expected} not reached from agent.proto: ${[...fetched.keys()].join(', ')}`);
    }

    // The fetched files resolve on their own, the option's declaration included.
    const registry = createFileRegistry(create(FileDescriptorSetSchema, { file: dependenciesFirst(fetched) }));
    assert.ok(registry.getService('s2sp.v1.AgentService'));
    const contractVersion = registry.getExtension(CONTRACT_VERSION_OPTION.name);
    assert.equal(contractVersion?.number, CONTRACT_VERSION_OPTION.number);
    assert.equal(contractVersion.extendee.typeName, 'google.protobuf.FileOptions');
    const contractFiles = [...fetched.values()].filter((file) => file.package === CONTRACT_PACKAGE);
    assert.ok(contractFiles.length >= 4);
    for (const file of contractFiles) {
      assert.equal(
        getOption(registry.getFile(file.name)!, contractVersion),
        PACKAGE_CONTRACT_VERSIONS[CONTRACT_PACKAGE],
        `contract version of ${file.name}`,
      );
    }
  });

  test('file_containing_symbol answers with the file and everything it imports, for any nested symbol', async () => {
    const files = await fetchFiles(v1(), { file_containing_symbol: 's2sp.v1.ToolService.InvokeTool' });
    assert.equal(files[0]?.name, 's2sp/v1/tool.proto');
    const names = new Set(files.map((file) => file.name));
    for (const file of files) {
      for (const dependency of file.dependency)
        assert.ok(names.has(dependency), `${file.name} imports ${dependency}, which is missing`);
    }
  });

  test('file_containing_extension finds the file declaring the contract version option', async () => {
    const [file] = await fetchFiles(v1(), {
      file_containing_extension: {
        containing_type: 'google.protobuf.FileOptions',
        extension_number: CONTRACT_VERSION_OPTION.number,
      },
    });
    assert.equal(file?.name, 's2sp/v1/contract.proto');
    assert.deepEqual(
      file.extension.map((extension) => `${file.package}.${extension.name}`),
      [CONTRACT_VERSION_OPTION.name],
    );
  });

  test('the health service has its own descriptor', async () => {
    const [healthFile] = await fetchFiles(v1(), { file_containing_symbol: 'grpc.health.v1.Health' });
    assert.equal(healthFile?.package, 'grpc.health.v1');
    assert.ok(healthFile.service.some((service) => service.name === 'Health'));
  });

  test('unknown symbols and files, and the merged file protobufjs used to make up, are NOT_FOUND error responses', async () => {
    for (const request of [
      { file_containing_symbol: 's2sp.v1.NoSuchService' },
      { file_by_filename: 's2sp_v1.proto' },
    ]) {
      const response = await reflect(v1(), request);
      assert.equal(response.error_response?.error_code, grpc.status.NOT_FOUND, JSON.stringify(request));
    }
  });
});
