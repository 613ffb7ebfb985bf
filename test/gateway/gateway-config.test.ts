import { v1 } from '@s2sp/contracts';
import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultGatewayConfig, gatewayConfigFromEnv, type GatewayConfig } from '../../libs/gateway/src';
import { validateGatewayConfig } from '../../libs/gateway/src/gateway.config';
import { protoEnumToJson, jsonToProtoEnum } from '../../libs/gateway/src/transcoding/proto-enum';
import { idempotencyKeyHash, requestHash } from '../../libs/gateway/src/idempotency/idempotency-hashes';
import { callerKey } from '../../libs/gateway/src/caller/caller-key';

const SAVED = { ...process.env };

function withEnv(values: Record<string, string>): void {
  for (const key of Object.keys(process.env)) {
    const read = ['GATEWAY_', 'OTEL_', 'S2SP_SHUTDOWN_'].some((prefix) => key.startsWith(prefix));
    if (read || key === 'DATABASE_URL' || key === 'LOG_LEVELS') delete process.env[key];
  }
  Object.assign(process.env, values);
}

describe('gateway configuration', () => {
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in SAVED)) delete process.env[key];
    Object.assign(process.env, SAVED);
  });

  test('defaults: 127.0.0.1:3000, agents at 127.0.0.1:50051, PGlite in .data/gateway, 24 h idempotency, 120/min', () => {
    withEnv({});
    const config = gatewayConfigFromEnv();
    assert.deepEqual(
      { ...config, databaseUrl: undefined, telemetry: undefined },
      { ...defaultGatewayConfig(), databaseUrl: undefined, telemetry: undefined },
    );
    assert.deepEqual(config.telemetry, {}, 'no OTEL_* variable, no telemetry option');
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.port, 3000);
    assert.equal(config.agentsUrl, '127.0.0.1:50051');
    assert.equal(config.dataDir, '.data/gateway');
    assert.equal(config.databaseUrl, undefined);
    assert.equal(config.idempotency.ttlMs, 86_400_000);
    assert.deepEqual(config.rateLimit, { limit: 120, windowMs: 60_000 });
  });

  test('every setting can come from the environment', () => {
    withEnv({
      GATEWAY_HOST: '0.0.0.0',
      GATEWAY_PORT: '8080',
      GATEWAY_AGENTS_URL: 'agents.internal:50051',
      GATEWAY_DATA_DIR: '/var/lib/gateway',
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test',
      GATEWAY_MAX_BATCH_SIZE: '200',
      GATEWAY_BATCH_CONCURRENCY: '16',
      GATEWAY_MAX_BODY_BYTES: '2097152',
      GATEWAY_DEFAULT_DEADLINE_MS: '10000',
      GATEWAY_MAX_DEADLINE_MS: '60000',
      GATEWAY_GRPC_DEADLINE_RESERVE_MS: '50',
      GATEWAY_GRPC_MINIMUM_BUDGET_MS: '30',
      GATEWAY_GRPC_MAX_RECONNECT_BACKOFF_MS: '1000',
      GATEWAY_GRPC_BREAKER_MINIMUM_BUDGET_MS: '5000',
      GATEWAY_AGENTS_LOAD_BALANCING: 'pick_first',
      GATEWAY_RATE_LIMIT: '10',
      GATEWAY_RATE_LIMIT_WINDOW_MS: '1000',
      GATEWAY_BREAKER_WINDOW_MS: '30000',
      GATEWAY_BREAKER_MINIMUM_CALLS: '20',
      GATEWAY_BREAKER_ERROR_RATE_PERCENT: '25',
      GATEWAY_BREAKER_OPEN_MS: '15000',
      GATEWAY_IDEMPOTENCY_TTL_MS: '3600000',
      GATEWAY_IDEMPOTENCY_SWEEP_MS: '0',
      GATEWAY_IDEMPOTENCY_POLL_MS: '100',
      GATEWAY_HEALTH_TIMEOUT_MS: '250',
      GATEWAY_MAX_PARAMS_DEPTH: '16',
      GATEWAY_MAX_PARAMS_ARRAY_LENGTH: '500',
      GATEWAY_MAX_PARAMS_STRING_LENGTH: '4096',
      GATEWAY_MAX_PARAMS_MEMBERS: '2000',
      GATEWAY_TOOL_CATALOG_TTL_MS: '5000',
      GATEWAY_TOOL_CATALOG_MISS_REFRESH_MS: '250',
      GATEWAY_CONSOLE: '1',
      GATEWAY_CONSOLE_DIR: '/srv/console',
      GATEWAY_CONSOLE_DEV_TOKENS: '0',
      GATEWAY_CONSOLE_DEV_TOKEN_TTL_SECONDS: '900',
      LOG_LEVELS: 'error,warn',
      S2SP_AUDIT_RETENTION_DAYS: '7',
      S2SP_AUDIT_RETENTION_SWEEP_MS: '60000',
      S2SP_SHUTDOWN_GRACE_MS: '20000',
      S2SP_SHUTDOWN_NOT_READY_DELAY_MS: '3000',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      OTEL_METRICS_EXPORTER: 'none',
    });
    const expected: GatewayConfig = {
      host: '0.0.0.0',
      port: 8080,
      agentsUrl: 'agents.internal:50051',
      agentsAudience: 'agents',
      auth: { audience: 'gateway', keys: { kind: 'dev' } },
      auditRetention: { retentionMs: 7 * 24 * 60 * 60 * 1000, sweepIntervalMs: 60_000, batchSize: 10_000 },
      databaseUrl: 'postgresql://postgres@127.0.0.1:5432/test',
      dataDir: '/var/lib/gateway',
      jsonRpc: {
        maxBatchSize: 200,
        batchConcurrency: 16,
        maxBodyBytes: 2097152,
        defaultDeadlineMs: 10_000,
        maxDeadlineMs: 60_000,
        maxParamsDepth: 16,
        maxParamsArrayLength: 500,
        maxParamsStringLength: 4096,
        maxParamsMembers: 2000,
      },
      grpc: {
        deadlineReserveMs: 50,
        minimumBudgetMs: 30,
        maxReconnectBackoffMs: 1000,
        breakerMinimumBudgetMs: 5000,
        loadBalancing: 'pick_first',
      },
      rateLimit: { limit: 10, windowMs: 1000 },
      circuitBreaker: { windowMs: 30_000, minimumCalls: 20, errorRateThreshold: 0.25, openDurationMs: 15_000 },
      idempotency: { ttlMs: 3_600_000, sweepIntervalMs: 0, pollIntervalMs: 100 },
      health: { timeoutMs: 250 },
      toolCatalog: { ttlMs: 5000, missRefreshIntervalMs: 250 },
      console: {
        enabled: true,
        assetsDir: '/srv/console',
        devTokens: false,
        devTokenTtlSeconds: 900,
        production: false,
      },
      shutdown: { graceMs: 20_000, notReadyDelayMs: 3_000 },
      telemetry: { otlpTracesUrl: 'http://collector:4318/v1/traces' },
      logger: ['error', 'warn'],
    };
    assert.deepEqual(gatewayConfigFromEnv(), expected);
  });

  test('a malformed variable fails the start, naming it', () => {
    withEnv({ GATEWAY_PORT: 'eighty' });
    assert.throws(() => gatewayConfigFromEnv(), /GATEWAY_PORT/);
    withEnv({ GATEWAY_BREAKER_ERROR_RATE_PERCENT: '150' });
    assert.throws(() => gatewayConfigFromEnv(), /GATEWAY_BREAKER_ERROR_RATE_PERCENT/);
    withEnv({ GATEWAY_AGENTS_URL: 'http://agents:50051' });
    assert.throws(() => gatewayConfigFromEnv(), /agentsUrl must be host:port/);
    withEnv({ GATEWAY_AGENTS_LOAD_BALANCING: 'random' });
    assert.throws(() => gatewayConfigFromEnv(), /GATEWAY_AGENTS_LOAD_BALANCING must be one of round_robin, pick_first/);
    withEnv({ GATEWAY_DEFAULT_DEADLINE_MS: '90000', GATEWAY_MAX_DEADLINE_MS: '60000' });
    assert.throws(() => gatewayConfigFromEnv(), /jsonRpc.defaultDeadlineMs must not exceed/);
    withEnv({ LOG_LEVELS: 'error,loud' });
    assert.throws(() => gatewayConfigFromEnv(), /LOG_LEVELS has unknown level\(s\): loud/);
  });

  test('validateGatewayConfig rejects nonsense passed in code', () => {
    const base = defaultGatewayConfig();
    assert.throws(
      () => validateGatewayConfig({ ...base, circuitBreaker: { ...base.circuitBreaker, errorRateThreshold: 0 } }),
      /errorRateThreshold/,
    );
    assert.throws(() => validateGatewayConfig({ ...base, rateLimit: { limit: 0, windowMs: 1000 } }), /rateLimit.limit/);
    assert.throws(() => validateGatewayConfig({ ...base, port: 70_000 }), /port/);
    assert.doesNotThrow(() => validateGatewayConfig({ ...base, agentsUrl: '[::1]:50051' }));
    assert.throws(
      () => validateGatewayConfig({ ...base, grpc: { ...base.grpc, loadBalancing: 'random' as never } }),
      /grpc.loadBalancing must be one of/,
    );
  });

  test('the agents target: host:port, dns:///host:port, or fixed ipv4:/ipv6: address lists, and nothing else', () => {
    const base = defaultGatewayConfig();
    for (const agentsUrl of [
      'agents:50051',
      '[::1]:50051',
      'dns:///agents-headless:50051',
      'dns:///[::1]:50051',
      'ipv4:10.0.0.1:50051,10.0.0.2:50051',
      'ipv6:[::1]:50051,[::2]:50051',
    ]) {
      assert.doesNotThrow(() => validateGatewayConfig({ ...base, agentsUrl }), agentsUrl);
    }
    for (const agentsUrl of [
      'agents',
      'http://agents:50051',
      'dns://agents:50051',
      'dns:///agents',
      'ipv4:agents:50051',
      'ipv4:10.0.0.1:50051,',
      'a:1,b:2',
      ' agents:50051',
      'unix:/tmp/agents.sock',
    ]) {
      assert.throws(
        () => validateGatewayConfig({ ...base, agentsUrl }),
        /agentsUrl must be host:port, dns:\/\/\/host:port or ipv4:\/ipv6: addresses/,
        agentsUrl,
      );
    }
  });
});

describe('gateway building blocks', () => {
  test('enums cross the boundary as lower-case names without prefix', () => {
    assert.equal(protoEnumToJson('TASK_STATUS_RUNNING', 'TASK_STATUS_'), 'running');
    assert.equal(protoEnumToJson('TOOL_KIND_S2SP_RESOURCE', 'TOOL_KIND_'), 's2sp_resource');
    assert.equal(protoEnumToJson('TASK_STATUS_UNSPECIFIED', 'TASK_STATUS_'), 'unspecified');
    assert.equal(protoEnumToJson(42, 'TASK_STATUS_'), 'unspecified');
    assert.equal(jsonToProtoEnum('async', v1.DataPlaneMode, 'DATA_PLANE_MODE_'), 'DATA_PLANE_MODE_ASYNC');
    assert.equal(jsonToProtoEnum(undefined, v1.DataPlaneMode, 'DATA_PLANE_MODE_'), 'DATA_PLANE_MODE_UNSPECIFIED');
    assert.throws(
      () => jsonToProtoEnum('sideways', v1.DataPlaneMode, 'DATA_PLANE_MODE_'),
      /DATA_PLANE_MODE_SIDEWAYS is not a value/,
    );
  });

  test('idempotency keys are scoped by caller and method; request hashes ignore member order and the key', () => {
    const a = idempotencyKeyHash('address:127.0.0.1', 'tools.call', 'k');
    assert.match(a, /^[0-9a-f]{64}$/);
    assert.notEqual(a, idempotencyKeyHash('address:::1', 'tools.call', 'k'));
    assert.notEqual(a, idempotencyKeyHash('address:127.0.0.1', 'agent.submitTask', 'k'));
    assert.notEqual(idempotencyKeyHash('a', 'bc', 'k'), idempotencyKeyHash('ab', 'c', 'k'));
    assert.equal(
      requestHash({ name: 'x', arguments: { b: 1, a: [1, { d: 2, c: 3 }] }, idempotency_key: 'k1' }),
      requestHash({ idempotency_key: 'k2', arguments: { a: [1, { c: 3, d: 2 }], b: 1 }, name: 'x' }),
    );
    assert.notEqual(
      requestHash({ name: 'x', arguments: { a: [1, 2] } }),
      requestHash({ name: 'x', arguments: { a: [2, 1] } }),
    );
  });

  test('callerKey: the subject when authenticated, else the client address', () => {
    const anonymous = { authenticated: false, subject: 'anonymous', scopes: [] };
    assert.equal(callerKey({ caller: anonymous, remoteAddress: '::ffff:10.0.0.7' }), 'address:10.0.0.7');
    assert.equal(callerKey({ caller: anonymous, remoteAddress: '::1' }), 'address:::1');
    assert.equal(callerKey({ caller: anonymous }), 'address:unknown');
    assert.equal(
      callerKey({ caller: { authenticated: true, subject: 'client-42', scopes: [] }, remoteAddress: '::1' }),
      'subject:client-42',
    );
  });
});
