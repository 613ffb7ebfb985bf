// What a process pays for at start-up: packages needed only by one kind of request are
// loaded by the first such request (libs/s2sp/src/data-plane/arrow/lazy-arrow.ts), or only by
// the apps configured to use them (the metrics SDK, the OTLP exporters and the trace-context propagator,
// libs/telemetry/src/telemetry.ts and libs/telemetry/src/tracing/global-propagation.ts; ioredis,
// libs/platform/src/redis/shared-redis.ts; jose, libs/auth/src/lazy-jose.ts); what the first call of a kind would pay for is
// loaded while the app starts, in the apps that make such calls (libs/s2sp/src/resource/token-counter-warm-up.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';

/**
 * The packages under node_modules a fresh process has loaded once `script` (the body of an async
 * function) ran, including modules it let go of afterwards, and those it read files of (the token
 * counter reads its rank file as data: libs/protocol/src/rank-file.ts).
 */
function packagesLoadedBy(script: string): string[] {
  const output = execFileSync(
    process.execPath,
    [
      '-e',
      `const files = new Set();
      const fs = require('node:fs');
      const readFileSync = fs.readFileSync;
      fs.readFileSync = function (file, ...rest) {
        if (typeof file === 'string') files.add(file);
        return readFileSync.call(this, file, ...rest);
      };
      require('node:module').registerHooks({
        resolve(specifier, context, nextResolve) {
          const resolved = nextResolve(specifier, context);
          files.add(resolved.url);
          return resolved;
        },
      });
      (async () => { ${script}; })().then(() => {
        const names = [...files].map((file) => file.match(/node_modules\\/((?:@[^/]+\\/)?[^/]+)/)?.[1]);
        console.log('LOADED ' + JSON.stringify([...new Set(names.filter(Boolean))]));
      });`,
    ],
    { encoding: 'utf8' },
  );
  // The line the script printed (a library may log on stdout too).
  const loaded = output.split('\n').find((line) => line.startsWith('LOADED '));
  assert.ok(loaded, output);
  return JSON.parse(loaded.slice('LOADED '.length));
}

test('@s2sp/core loads apache-arrow only when an Arrow answer is first encoded or decoded', () => {
  assert.ok(!packagesLoadedBy(`require('@s2sp/core')`).includes('apache-arrow'));
  // The check does see the package once an encoder is asked for.
  const lazyArrow = join(dirname(require.resolve('@s2sp/core')), 'data-plane', 'arrow', 'lazy-arrow.js');
  const encoderAskedFor = `require('@s2sp/core'); require(${JSON.stringify(lazyArrow)}).arrowEncoder()`;
  assert.ok(packagesLoadedBy(encoderAskedFor).includes('apache-arrow'));
});

test('@s2sp/core loads the OTLP exporters only in an app that exports to an OTLP endpoint', () => {
  const atStart = packagesLoadedBy(`require('@s2sp/core')`);
  for (const exporter of ['@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http'])
    assert.ok(!atStart.includes(exporter), exporter);
  const exporting = packagesLoadedBy(
    `require('@s2sp/core');
    const telemetry = await require('@s2sp/telemetry').startTelemetry({
      serviceName: 'lazy-test',
      otlpTracesUrl: 'http://127.0.0.1:9/v1/traces',
      otlpMetricsUrl: 'http://127.0.0.1:9/v1/metrics',
    });
    await telemetry.shutdown()`,
  );
  for (const exporter of ['@opentelemetry/exporter-trace-otlp-http', '@opentelemetry/exporter-metrics-otlp-http'])
    assert.ok(exporting.includes(exporter), exporter);
});

/** A script that starts and stops telemetry keeping spans' context but no metrics. */
const STARTS_TELEMETRY_WITHOUT_METRICS = `require('@s2sp/core');
    const telemetry = await require('@s2sp/telemetry').startTelemetry({ serviceName: 'lazy-test', metrics: false });
    await telemetry.shutdown()`;

test('@s2sp/core loads the metrics SDK, its Prometheus reader and resource detection only in an app that keeps metrics', () => {
  const sdk = ['@opentelemetry/sdk-metrics', '@opentelemetry/exporter-prometheus', '@opentelemetry/resources'];
  const atStart = packagesLoadedBy(`require('@s2sp/core')`);
  for (const name of sdk) assert.ok(!atStart.includes(name), name);
  const withoutMetrics = packagesLoadedBy(STARTS_TELEMETRY_WITHOUT_METRICS);
  for (const name of sdk) assert.ok(!withoutMetrics.includes(name), name);
  const keepingMetrics = packagesLoadedBy(
    `require('@s2sp/core');
    const telemetry = await require('@s2sp/telemetry').startTelemetry({ serviceName: 'lazy-test' });
    telemetry.metrics.recordToolCall('x', 'lazy-test', 0.001);
    await telemetry.scrape();
    await telemetry.shutdown()`,
  );
  for (const name of sdk) assert.ok(keepingMetrics.includes(name), name);
});

test('@s2sp/core loads the trace-context propagator (and the semantic conventions it reads) only in an app that starts telemetry', () => {
  const propagation = [
    '@opentelemetry/core',
    '@opentelemetry/semantic-conventions',
    '@opentelemetry/context-async-hooks',
  ];
  const atStart = packagesLoadedBy(`require('@s2sp/core')`);
  for (const name of propagation) assert.ok(!atStart.includes(name), name);
  const started = packagesLoadedBy(STARTS_TELEMETRY_WITHOUT_METRICS);
  for (const name of propagation) assert.ok(started.includes(name), name);
});

test('@s2sp/core loads ioredis only in a process that connects to Redis', () => {
  assert.ok(!packagesLoadedBy(`require('@s2sp/core')`).includes('ioredis'));
  const connecting = packagesLoadedBy(`
    const { SharedRedis } = require(${JSON.stringify(require.resolve('@s2sp/platform'))});
    await SharedRedis.connect({ url: 'redis://127.0.0.1:9', keyPrefix: 'lazy:', connectTimeoutMs: 200, commandTimeoutMs: 200 }).catch(() => undefined)`);
  assert.ok(connecting.includes('ioredis'));
});

test('jose loads while a server with auth starts, and never in one without auth', () => {
  assert.ok(!packagesLoadedBy(`require('@s2sp/core')`).includes('jose'));
  const stack = JSON.stringify(join(__dirname, '..', 'support', 'stack.js'));
  const withoutAuth = packagesLoadedBy(
    `require('reflect-metadata');
    const { Module } = require('@nestjs/common');
    const { S2spModule, serveMcp } = require('@s2sp/core');
    class App {}
    Module({ imports: [S2spModule.forRoot({ publicBaseUrl: 'http://127.0.0.1', database: { dataDir: ':memory:' } })] })(App);
    const server = await serveMcp(App, { name: 'no-auth', version: '1.0.0', host: '127.0.0.1', port: 0, transport: 'http', logger: false });
    await server.close()`,
  );
  assert.ok(!withoutAuth.includes('jose'), 'an S2spModule server without auth');
  const withAuth = packagesLoadedBy(`const server = await require(${stack}).startWeather(); await server.close()`);
  assert.ok(withAuth.includes('jose'), 'the weather server with auth, before any request');
  const keys = packagesLoadedBy(`await new (require('@s2sp/auth').DevKeyStore)().getPublicJwks()`);
  assert.ok(keys.includes('jose'), 'a key store making its key');
});

test('a server with resource tools loads the token counter while it starts (the first count does not pay for it); one without does not load it', () => {
  const stack = JSON.stringify(join(__dirname, '..', 'support', 'stack.js'));
  const weather = packagesLoadedBy(
    `const server = await require(${stack}).startWeather({ warmUp: true }); await server.close()`,
  );
  assert.ok(weather.includes('js-tiktoken'), 'the weather server (get_alerts is a resource tool) loaded it');
  const unwarmed = packagesLoadedBy(
    `const server = await require(${stack}).startWeather({ warmUp: false }); await server.close()`,
  );
  assert.ok(!unwarmed.includes('js-tiktoken'), 'nor with warmUp: false');
  const stats = packagesLoadedBy(
    `const server = await require(${stack}).startStats([], { warmUp: true }); await server.close()`,
  );
  assert.ok(!stats.includes('js-tiktoken'), 'the stats server (consumer tools only) did not');
});
