// GatewayModule.forRootAsync: the configuration comes from the app's own configuration module
// when the app starts, is validated then (the start fails naming the field), and the seams are
// given beside the factory. The app is served by serveGateway, as startGateway serves forRoot's.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Injectable, Module, type DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type { ApprovalDecision } from '@s2sp/auth';
import {
  APPROVAL_PROVIDER,
  GatewayModule,
  serveGateway,
  type ApprovalProvider,
  type GatewayConfig,
  type GatewayModuleAsyncOptions,
  type RunningGateway,
} from '@s2sp/gateway';
import { FakeAgents } from '../support/fake-agents';
import { freshDataDir, removeTempDirs, testGatewayConfig } from '../support/gateway-harness';
import { RecordingIdempotencyStore } from '../support/recording-idempotency-store';
import { bearerFor } from '../support/tokens';

/** The app's own configuration, as a ConfigModule would provide it. */
const APP_CONFIG = Symbol('APP_CONFIG');

interface AppConfig {
  gateway: GatewayConfig;
}

function configModule(config: AppConfig): DynamicModule {
  @Module({})
  class AppConfigModule {}
  return { module: AppConfigModule, providers: [{ provide: APP_CONFIG, useValue: config }], exports: [APP_CONFIG] };
}

/** The app's root module: the gateway, configured from the app's configuration when the app starts. */
function appModule(config: AppConfig, seams: Omit<GatewayModuleAsyncOptions, 'useFactory'> = {}): DynamicModule {
  @Module({})
  class AppModule {}
  return {
    module: AppModule,
    imports: [
      GatewayModule.forRootAsync({
        imports: [configModule(config)],
        inject: [APP_CONFIG],
        useFactory: async (app: AppConfig) => app.gateway,
        ...seams,
      } as GatewayModuleAsyncOptions),
    ],
  };
}

@Injectable()
class ApproveEverything implements ApprovalProvider {
  async decide(): Promise<ApprovalDecision> {
    return { approved: true, approver: 'policy' };
  }
}

/** Counts the calls it is asked about; never blocks. */
class CountingStorage implements ThrottlerStorage {
  increments = 0;
  async increment(_key: string, ttl: number): ReturnType<ThrottlerStorage['increment']> {
    this.increments += 1;
    return { totalHits: this.increments, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
  }
}

async function rpc(gateway: RunningGateway, method: string, params: object): Promise<any> {
  const response = await fetch(`${gateway.url}/rpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: await bearerFor({ audience: 'gateway' }) },
    body: JSON.stringify({ jsonrpc: '2.0', method, params, id: 1 }),
  });
  return response.json();
}

/** Creates the app without serving it: what fails, fails here, and is thrown rather than ending the process. */
async function createApp(module: DynamicModule): Promise<void> {
  const app = await NestFactory.create(module, new FastifyAdapter(), { logger: false, abortOnError: false });
  await app.close();
}

describe('GatewayModule.forRootAsync: the configuration from the app’s own module, when the app starts', () => {
  let fake: FakeAgents;
  let gateway: RunningGateway | undefined;
  const idempotencyStore = new RecordingIdempotencyStore();
  const rateLimitStorage = new CountingStorage();

  before(async () => {
    fake = await FakeAgents.start();
    const config = testGatewayConfig(fake.address, await freshDataDir(), {
      console: { enabled: true, assetsDir: '/nonexistent', devTokens: false, devTokenTtlSeconds: 600 },
    });
    gateway = await serveGateway(
      appModule({ gateway: config }, { idempotencyStore, rateLimitStorage, approvalProvider: ApproveEverything }),
      { logger: false },
    );
  });
  after(async () => {
    await gateway?.close();
    await fake?.stop();
    await removeTempDirs();
  });

  test('serves: GET /health with the agents up, and JSON-RPC calls through them', async () => {
    const health = await fetch(`${gateway!.url}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { status: string }).status, 'ok');

    const answer = await rpc(gateway!, 'tools.list', {});
    assert.ok(Array.isArray(answer.result?.tools), JSON.stringify(answer));
  });

  test('the seams given beside the factory are the ones behind their tokens', async () => {
    const before = rateLimitStorage.increments;
    const submit = {
      objective: 'Chart the wind alerts',
      plan: [
        {
          step_id: 'alerts',
          resource_call: { server: 'weather', tool: 'get_alerts', arguments: { area: 'CA' }, abstract_domains: ['a'] },
        },
      ],
      idempotency_key: 'async-seams-1',
    };
    const first = await rpc(gateway!, 'agent.submitTask', submit);
    assert.ok(first.result, JSON.stringify(first));
    assert.deepEqual(await rpc(gateway!, 'agent.submitTask', submit), first, 'the retry was answered from the store');
    assert.equal(fake.callsTo('SubmitTask').length, 1);
    assert.equal(idempotencyStore.records.size, 1, 'the record is in the given store');
    assert.equal(rateLimitStorage.increments, before + 2, 'both calls were counted in the given storage');
    assert.ok(gateway!.app.get(APPROVAL_PROVIDER) instanceof ApproveEverything, 'Nest built the given class');
  });

  test('console routes the configuration turns off answer as routes that do not exist', async () => {
    const unknown = await fetch(`${gateway!.url}/console/api/nothing-here`, { method: 'POST' });
    const devToken = await fetch(`${gateway!.url}/console/api/dev-token`, { method: 'POST' });
    assert.equal(devToken.status, 404);
    assert.deepEqual(
      await devToken.json(),
      { ...((await unknown.json()) as object), message: 'Cannot POST /console/api/dev-token' },
      'the 404 Nest answers for an unknown route',
    );
    const settings = await fetch(`${gateway!.url}/console/api/settings`);
    assert.equal(settings.status, 200, 'the console itself is on');
    assert.equal(((await settings.json()) as { devTokens: boolean }).devTokens, false);
  });
});

describe('GatewayModule.forRootAsync: a configuration that cannot work fails the start, naming the field', () => {
  after(removeTempDirs);

  test('a bad value, found when the factory has made the configuration', async () => {
    const config = testGatewayConfig('127.0.0.1:1', await freshDataDir(), { rateLimit: { limit: 0 } });
    await assert.rejects(
      createApp(appModule({ gateway: config })),
      /Gateway config rateLimit\.limit must be an integer from 1/,
    );
  });

  test('AuthModule’s providers in the configuration the factory made: refused, saying where they go', async () => {
    const config = testGatewayConfig('127.0.0.1:1', await freshDataDir());
    config.auth = { ...config.auth, approvalProvider: { useClass: ApproveEverything } };
    await assert.rejects(
      createApp(appModule({ gateway: config })),
      /Gateway config auth\.approvalProvider cannot be made at run time.*pass approvalProvider to forRootAsync itself/,
    );
  });
});
