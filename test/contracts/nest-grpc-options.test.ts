import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Controller, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { GrpcMethod, Transport, type GrpcOptions } from '@nestjs/microservices';
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { PROTO_FILES, PROTO_LOADER_OPTIONS, toStruct, fromStruct } from '../../libs/contracts/src';
import { freePort } from '../support/free-port';

@Controller()
class ToolController {
  @GrpcMethod('ToolService', 'ListTools')
  listTools(request: { page_size: number }): unknown {
    return {
      tools: [
        {
          name: 'get_alerts',
          server: 'weather',
          input_schema: toStruct({ type: 'object' }),
          mutation_class: 'MUTATION_CLASS_READ_ONLY',
        },
      ],
      next_cursor: String(request.page_size),
    };
  }
}

@Module({ controllers: [ToolController] })
class ToolModule {}

describe('contracts with a Nest gRPC microservice', () => {
  test('PROTO_FILES + PROTO_LOADER_OPTIONS work as Nest GrpcOptions', async () => {
    const url = `127.0.0.1:${await freePort()}`;
    const options: GrpcOptions = {
      transport: Transport.GRPC,
      options: { package: 's2sp.v1', protoPath: [...PROTO_FILES], url, loader: { ...PROTO_LOADER_OPTIONS } },
    };
    const app = await NestFactory.createMicroservice(ToolModule, { ...options, logger: false });
    await app.listen();
    const definition = protoLoader.loadSync([...PROTO_FILES], { ...PROTO_LOADER_OPTIONS });
    const pkg = grpc.loadPackageDefinition(definition) as any;
    const client = new pkg.s2sp.v1.ToolService(url, grpc.credentials.createInsecure());
    try {
      const response = await new Promise<any>((resolve, reject) =>
        client.ListTools({ page_size: 7 }, (error: Error | null, value: unknown) =>
          error ? reject(error) : resolve(value),
        ),
      );
      assert.equal(response.next_cursor, '7');
      assert.equal(response.tools[0].mutation_class, 'MUTATION_CLASS_READ_ONLY');
      assert.deepEqual(fromStruct(response.tools[0].input_schema), { type: 'object' });
    } finally {
      client.close();
      await app.close();
    }
  });
});
