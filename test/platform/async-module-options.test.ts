import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Global, Injectable, Module, type DynamicModule, type InjectionToken } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import {
  APPROVAL_PROVIDER,
  AuthModule,
  type ApprovalProvider,
  authOptionsFromEnv,
  type AuthModuleOptions,
  type ResolvedAuthOptions,
} from '@s2sp/auth';
import { AUTH_OPTIONS } from '@s2sp/auth/internal';
import { s2spAuthModuleAsync, S2spModule, type ResolvedS2spOptions, type S2spModuleOptions } from '@s2sp/core';
import { AuditRetention } from '../../libs/s2sp/src/audit/audit-retention';
import { S2SP_OPTIONS } from '../../libs/s2sp/src/config/s2sp.constants';
import {
  SHARED_REDIS,
  SharedRedis,
  SharedRedisModule,
  type ModuleOptionsFactory,
  type RedisOptions,
} from '@s2sp/platform';
import { asyncOptionsProviders } from '@s2sp/platform/internal';
import { Telemetry, TelemetryModule, type TelemetryOptions } from '@s2sp/telemetry';
import { DatabaseModule, type DatabaseLocation, type S2spDatabase } from '@s2sp/database';
import { IN_MEMORY } from '../../libs/database/src/database';
import { isolatedRedisOptions, redisOrSkip } from '../support/redis';
import { JSON_RPC_MODULE_OPTIONS, JsonRpcModule, type JsonRpcModuleOptions } from '@s2sp/json-rpc';
import { type ResolvedJsonRpcModuleOptions } from '@s2sp/json-rpc/internal';

/** Builds `module` three ways (useFactory, useClass, useExisting) and returns what `token` resolved to each time. */
async function resolvedEachWay<T, R>(
  build: (source: object) => DynamicModule,
  token: InjectionToken,
  options: () => T,
): Promise<R[]> {
  @Injectable()
  class OptionsFactory implements ModuleOptionsFactory<T> {
    createOptions(): T {
      return options();
    }
  }
  @Module({ providers: [OptionsFactory], exports: [OptionsFactory] })
  class OptionsModule {}

  const sources = [
    { useFactory: options },
    { useClass: OptionsFactory },
    { useExisting: OptionsFactory, imports: [OptionsModule] },
  ];
  const resolved: R[] = [];
  for (const source of sources) {
    const moduleRef = await Test.createTestingModule({ imports: [build(source)] }).compile();
    try {
      resolved.push(moduleRef.get<R>(token));
    } finally {
      await moduleRef.close();
    }
  }
  return resolved;
}

describe('forRootAsync takes useFactory, useClass or useExisting, as Nest’s own modules do', () => {
  test('asyncOptionsProviders: each source resolves through the module’s resolver; anything else names the module', async () => {
    const token = Symbol('OPTIONS');
    const build = (source: object): DynamicModule => ({
      module: class ProbeModule {},
      imports: (source as { imports?: DynamicModule['imports'] }).imports ?? [],
      providers: asyncOptionsProviders('ProbeModule', token, source as never, (given: { size: number }) => ({
        size: given.size,
        resolved: true,
      })),
      exports: [token],
    });
    const each = await resolvedEachWay(build, token, () => ({ size: 3 }));
    assert.deepEqual(
      each,
      [1, 2, 3].map(() => ({ size: 3, resolved: true })),
    );
    assert.throws(
      () => asyncOptionsProviders('ProbeModule', token, {} as never, (given) => given),
      /ProbeModule\.forRootAsync needs one of useFactory, useClass or useExisting/,
    );
  });

  test('S2spModule', async () => {
    const each = await resolvedEachWay<S2spModuleOptions, ResolvedS2spOptions>(
      (source) => S2spModule.forRootAsync(source as never),
      S2SP_OPTIONS,
      () => ({ resourceTtlMs: 12_345, database: { dataDir: ':memory:' } }),
    );
    assert.deepEqual(
      each.map((options) => options.resourceTtlMs),
      [12_345, 12_345, 12_345],
    );
  });

  test('JsonRpcModule', async () => {
    const each = await resolvedEachWay<JsonRpcModuleOptions, ResolvedJsonRpcModuleOptions>(
      (source) => JsonRpcModule.forRootAsync(source as never),
      JSON_RPC_MODULE_OPTIONS,
      () => ({ maxBatchSize: 7 }),
    );
    assert.deepEqual(
      each.map((options) => options.maxBatchSize),
      [7, 7, 7],
    );
  });

  test('AuthModule', async () => {
    const dir = mkdtempSync(join(tmpdir(), 's2sp-auth-async-'));
    try {
      const each = await resolvedEachWay<AuthModuleOptions, ResolvedAuthOptions>(
        (source) => AuthModule.forRootAsync(source as never),
        AUTH_OPTIONS,
        () => authOptionsFromEnv('agents', { S2SP_AUTH_DATA_DIR: dir }),
      );
      assert.deepEqual(
        each.map((options) => options.audience),
        ['agents', 'agents', 'agents'],
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('TelemetryModule', async () => {
    const each = await resolvedEachWay<TelemetryOptions, Telemetry>(
      (source) =>
        TelemetryModule.forRootAsync({
          ...(source as Record<string, unknown>),
          interceptors: false,
          metricsRoute: false,
        } as never),
      Telemetry,
      () => ({ serviceName: 'async-probe' }),
    );
    assert.deepEqual(
      each.map((telemetry) => telemetry.serviceName),
      ['async-probe', 'async-probe', 'async-probe'],
    );
  });

  test('SharedRedisModule: options made at run time connect; undefined (no Redis configured) connects nothing', async (t) => {
    const none = await resolvedEachWay<RedisOptions | undefined, SharedRedis | undefined>(
      (source) => SharedRedisModule.forRootAsync(source as never),
      SHARED_REDIS,
      () => undefined,
    );
    assert.deepEqual(none, [undefined, undefined, undefined]);

    const bad = Test.createTestingModule({
      imports: [SharedRedisModule.forRootAsync({ useFactory: () => ({ ...isolatedRedisOptions(), url: 'http://x' }) })],
    }).compile();
    await assert.rejects(bad, /redis must be a redis:\/\/ or rediss:\/\/ URL; got a http: URL/);

    if (!(await redisOrSkip(t))) return;
    const options = isolatedRedisOptions();
    const moduleRef = await Test.createTestingModule({
      imports: [SharedRedisModule.forRootAsync({ useFactory: async () => options })],
    }).compile();
    try {
      const redis = moduleRef.get<SharedRedis>(SHARED_REDIS);
      assert.equal(redis.key('probe'), `${options.keyPrefix}probe`);
      assert.equal(await redis.client.ping(), 'PONG');
    } finally {
      await moduleRef.close();
    }
  });

  test('DatabaseModule: the location made at run time, the token fixed beside it', async () => {
    // One source only: each opening migrates a database, and the three sources are asyncOptionsProviders' (above).
    const token = Symbol('APP_DATABASE');
    const location: DatabaseLocation = { dataDir: IN_MEMORY };
    const moduleRef = await Test.createTestingModule({
      imports: [DatabaseModule.forRootAsync({ provide: token, useFactory: async () => location })],
    }).compile();
    try {
      assert.equal(moduleRef.get<S2spDatabase>(token).kind, 'pglite');
    } finally {
      await moduleRef.close();
    }
  });

  test('s2spAuthModuleAsync: auth settings made at run time, the approval provider beside them, never among them', async () => {
    const database = Symbol('AUDIT_DATABASE');
    // The audit sink and the retention only keep the database until they write or sweep, which a compiled module does not.
    @Global()
    @Module({ providers: [{ provide: database, useValue: { sql: {} } }], exports: [database] })
    class StubDatabaseModule {}
    const approvals: ApprovalProvider = { decide: async () => ({ approved: true, approver: 'policy' }) };
    const dir = mkdtempSync(join(tmpdir(), 's2sp-auth-async-'));
    try {
      const moduleRef = await Test.createTestingModule({
        imports: [
          StubDatabaseModule,
          s2spAuthModuleAsync({
            database,
            useFactory: async () => ({ auth: { audience: 'agents', dataDir: dir } }),
            approvalProvider: { useValue: approvals },
          }),
        ],
      }).compile();
      try {
        assert.equal(moduleRef.get<ResolvedAuthOptions>(AUTH_OPTIONS).audience, 'agents');
        assert.equal(moduleRef.get(APPROVAL_PROVIDER), approvals);
        assert.ok(moduleRef.get(AuditRetention) instanceof AuditRetention);
      } finally {
        await moduleRef.close();
      }

      const madeWithTheSettings = Test.createTestingModule({
        imports: [
          StubDatabaseModule,
          s2spAuthModuleAsync({
            database,
            useFactory: () => ({
              auth: { audience: 'agents', dataDir: dir, approvalProvider: { useValue: approvals } },
            }),
          }),
        ],
      }).compile();
      await assert.rejects(
        madeWithTheSettings,
        /auth\.approvalProvider cannot be made at run time.*pass approvalProvider to forRootAsync itself/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
