import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Controller, Module, UseGuards, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GrpcMethod, Transport } from '@nestjs/microservices';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS } from '../../libs/contracts/src';
import {
  AuthModule,
  callerFrom,
  DevKeyStore,
  JwtTokenVerifier,
  InMemoryAuditSink,
  MutationClass,
  RequireScopes,
  TokenMinter,
} from '../../libs/auth/src';
import { bearerMetadata, GrpcAuthGuard } from '../../libs/grpc/src';
import { tempDir } from './auth-fixtures';
import { freePort } from '../support/free-port';

@Controller()
@UseGuards(GrpcAuthGuard)
class GuardedToolController {
  @GrpcMethod('ToolService', 'ListTools')
  @RequireScopes('tools:list')
  listTools(_request: unknown, metadata: grpc.Metadata) {
    const caller = callerFrom(metadata)!;
    return { tools: [], next_cursor: `${caller.subject}:${caller.delegatedBy?.join('>')}` };
  }

  @GrpcMethod('ToolService', 'InvokeTool')
  @RequireScopes('tools:invoke')
  @MutationClass(MutationClass.DESTRUCTIVE)
  invokeTool(request: { invocation_id: string }) {
    return { invocation_id: request.invocation_id };
  }
}

type Unary = (
  request: unknown,
  metadata: grpc.Metadata,
  callback: (error: grpc.ServiceError | null, value?: any) => void,
) => void;

describe('GrpcAuthGuard on a Nest gRPC microservice', () => {
  const dir = tempDir();
  const audit = new InMemoryAuditSink();
  let app: INestMicroservice;
  let client: grpc.Client & Record<string, Unary>;
  let minter: TokenMinter;

  const call = (method: 'ListTools' | 'InvokeTool', metadata: grpc.Metadata, request: unknown = {}) =>
    new Promise<{ error: grpc.ServiceError | null; value: any }>((resolve) =>
      client[method](request, metadata, (error, value) => resolve({ error, value })),
    );
  const tokenFor = (scopes: string[], audience = 'agents') =>
    minter.mint({ subject: 'alice', scopes, audience, ttlSeconds: 300 });

  before(async () => {
    @Module({
      imports: [
        AuthModule.forRoot({
          audience: 'agents',
          dataDir: dir.path,
          auditSink: { useValue: audit },
          auditDelivery: { mode: 'blocking' },
        }),
      ],
      controllers: [GuardedToolController],
    })
    class AgentsModule {}
    const url = `127.0.0.1:${await freePort()}`;
    app = await NestFactory.createMicroservice(AgentsModule, {
      transport: Transport.GRPC,
      options: { package: 's2sp.v1', protoPath: [...PROTO_FILES], url, loader: { ...PROTO_LOADER_OPTIONS } },
      logger: false,
    });
    await app.listen();
    minter = app.get(TokenMinter);
    const pkg = grpc.loadPackageDefinition(protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS })) as any;
    client = new pkg.s2sp.v1.ToolService(url, grpc.credentials.createInsecure());
  });
  after(async () => {
    client?.close();
    await app?.close();
    dir.remove();
  });

  test('UNAUTHENTICATED without a valid token, with the generic message and x-s2sp-error-code 4001', async () => {
    const wrongAudience = bearerMetadata(await tokenFor(['tools:list'], 'gateway'));
    const malformed = new grpc.Metadata();
    malformed.set('authorization', 'Basic YWxpY2U6c2VjcmV0');
    for (const metadata of [new grpc.Metadata(), malformed, wrongAudience, bearerMetadata('abc.def.ghi')]) {
      const { error } = await call('ListTools', metadata);
      assert.equal(error?.code, grpc.status.UNAUTHENTICATED);
      assert.equal(error?.details, 'Invalid or expired credentials.');
      assert.deepEqual(error?.metadata.get('x-s2sp-error-code'), ['4001']);
    }
  });

  test('PERMISSION_DENIED naming the missing scope (4002)', async () => {
    const { error } = await call('ListTools', bearerMetadata(await tokenFor(['tools:invoke'])));
    assert.equal(error?.code, grpc.status.PERMISSION_DENIED);
    assert.equal(error?.details, 'Missing required scope: tools:list.');
    assert.deepEqual(error?.metadata.get('x-s2sp-error-code'), ['4002']);
    assert.deepEqual(
      error?.metadata.get('x-s2sp-missing-scopes'),
      ['tools:list'],
      'the gateway passes them on as data.missing_scopes',
    );
  });

  test('PERMISSION_DENIED with 4003 when a DESTRUCTIVE call has no approval', async () => {
    const { error } = await call('InvokeTool', bearerMetadata(await tokenFor(['tools:invoke'])), {
      invocation_id: 'i-1',
      tool_name: 'purge',
    });
    assert.equal(error?.code, grpc.status.PERMISSION_DENIED);
    assert.match(error?.details ?? '', /^Approval required/);
    assert.deepEqual(error?.metadata.get('x-s2sp-error-code'), ['4003']);
    assert.deepEqual(error?.metadata.get('x-s2sp-missing-scopes'), [], 'no scope is missing');
  });

  test('OK with the scope; the handler reads the caller from the metadata', async () => {
    const gatewayVerifier = new JwtTokenVerifier({
      audience: 'gateway',
      issuer: 's2sp-dev',
      keys: { kind: 'dev', store: app.get(DevKeyStore) },
    });
    const gatewayCaller = await gatewayVerifier.verify(await tokenFor(['tools:list', 'tools:invoke'], 'gateway'));
    // The gateway narrows the caller's token for the agents hop, as it will in production.
    const narrowed = await minter.narrowToken(gatewayCaller, ['tools:list'], 'agents', 5_000);
    const { error, value } = await call('ListTools', bearerMetadata(narrowed));
    assert.equal(error, null);
    assert.equal(value.next_cursor, 'alice:gateway');
    const allow = audit.events.at(-1)!;
    assert.equal(allow.decision, 'allow');
    assert.equal(allow.protocol, 'grpc');
    assert.equal(allow.operation, '/s2sp.v1.ToolService/ListTools');
    assert.deepEqual(allow.delegatedBy, ['gateway']);
  });
});
