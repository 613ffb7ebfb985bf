// The library takes its settings as options; only an app's configuration reads the environment
// (through the packages' fromEnv helpers), so that a user's options are the whole story.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_AUDIT_RETENTION } from '@s2sp/core';
import { DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY } from '../../libs/s2sp/src/audit/prisma-data-plane-fetch-audit';
import { DEFAULT_MCP_HTTP_LIMITS, resolveMcpHttpLimits } from '../../libs/s2sp/src/bootstrap/mcp-http-limits';
import { resolveS2spOptions } from '../../libs/s2sp/src/config/s2sp-options';
import { DEFAULT_SHUTDOWN_OPTIONS } from '@s2sp/platform';
import { resolveShutdownOptions } from '@s2sp/platform/internal';
import { appLogger, spanDestination } from '@s2sp/telemetry';
import { defaultGatewayConfig, gatewayConfigFromEnv } from '@s2sp/gateway';
import { agentsConfigFromEnv } from '@s2sp/agents';
import { weatherConfigFromEnv } from '../../apps/weather-server/src/weather-server.config';
import { statsConfigFromEnv } from '../../apps/stats-server/src/stats-server.config';
import { withEnv } from '../support/with-env';

const DAY_MS = 24 * 60 * 60 * 1000;
const VARIABLES = {
  S2SP_MCP_LIST_PAGE_SIZE: '7',
  S2SP_DATA_FETCH_AUDIT_MAX_PENDING: '9',
  S2SP_AUDIT_RETENTION_DAYS: '3',
  S2SP_SHUTDOWN_GRACE_MS: '4000',
  LOG_LEVELS: 'error',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
  NODE_ENV: 'production',
  // The dev key under NODE_ENV=production, for the apps' configurations below.
  S2SP_AUTH_ALLOW_DEV_KEY: '1',
};

test('S2spModule, serveMcp, startGateway and startAgents ignore the S2SP_MCP_*, S2SP_DATA_FETCH_AUDIT_*, S2SP_AUDIT_RETENTION_*, S2SP_SHUTDOWN_*, LOG_LEVELS, OTEL_* and NODE_ENV variables', () => {
  withEnv(VARIABLES, () => {
    const consoleOptions = defaultGatewayConfig().console;
    assert.equal(consoleOptions?.production, false, 'production is what the config says, not NODE_ENV');
    assert.equal(consoleOptions?.devTokens, true);
    assert.equal(spanDestination({ serviceName: 'app' }).kind, 'off', 'no OTLP export unless asked for');
    const lines: string[] = [];
    const logger = appLogger('app', undefined, { write: (line) => lines.push(line) });
    assert.ok(logger);
    logger.log('a log-level line');
    assert.equal(lines.length, 1, 'a logger configured with no levels keeps every level');
    assert.deepEqual(resolveShutdownOptions(), DEFAULT_SHUTDOWN_OPTIONS);
    assert.deepEqual(resolveMcpHttpLimits(), DEFAULT_MCP_HTTP_LIMITS);
    assert.deepEqual(resolveS2spOptions({}).dataPlaneFetchAudit, DEFAULT_DATA_PLANE_FETCH_AUDIT_RETRY);
    assert.equal(DEFAULT_AUDIT_RETENTION.retentionMs, 30 * DAY_MS);
  });
});

test("the apps' configurations read them and hand them to the packages as options", () => {
  withEnv(VARIABLES, () => {
    for (const config of [weatherConfigFromEnv(), statsConfigFromEnv()]) {
      assert.equal(config.mcpLimits?.listPageSize, 7);
      assert.equal(config.dataPlaneFetchAudit?.maxPending, 9);
    }
    for (const config of [
      weatherConfigFromEnv(),
      statsConfigFromEnv(),
      gatewayConfigFromEnv(),
      agentsConfigFromEnv(),
    ]) {
      assert.equal(config.auditRetention?.retentionMs, 3 * DAY_MS);
      assert.equal(config.shutdown?.graceMs, 4_000);
      assert.equal(config.telemetry?.otlpTracesUrl, 'http://collector:4318/v1/traces');
    }
    for (const config of [weatherConfigFromEnv(), statsConfigFromEnv(), gatewayConfigFromEnv()]) {
      assert.deepEqual(config.logger, ['error']);
    }
    assert.equal(gatewayConfigFromEnv().console?.production, true);
  });
  assert.throws(
    () => resolveS2spOptions({ dataPlaneFetchAudit: { maxPending: 0 } }),
    /dataPlaneFetchAudit.maxPending must be a positive integer/,
  );
});
