/**
 * Tracing overhead: the gateway benchmark's calls (JSON-RPC → gateway → gRPC →
 * agents → MCP server) through three identical stacks started in this one
 * process, rounds interleaved so machine drift hits all alike:
 *
 *   off   no exporter, no OTLP endpoint: no tracer provider (metrics stay on, as in production)
 *   on    every span recorded and handed to an exporter that drops it (the cost of tracing itself)
 *   otlp  every span batched and sent as OTLP/HTTP protobuf to a local collector stub (production)
 *
 *   npm run build && node dist/bench/tracing/tracing-bench.js [iterations=500]
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace';
import type { TelemetryOptions } from '@s2sp/telemetry';
import { startBenchStack, type BenchStack } from './bench-stack';
import { summarize, timeSequential, type LatencySummary } from '../gateway/percentiles';

const iterations = Number(process.argv[2] ?? process.env.BENCH_ITERATIONS ?? 500);
const warmup = Math.min(100, iterations);
const rounds = 5;

const WORKLOADS = [
  { label: 'small call: echo', params: { name: 'echo', server: 'testkit', arguments: { text: 'hi' } } },
  {
    label: 'S2SP call: get_alerts DC sync',
    params: {
      name: 'get_alerts',
      server: 'weather',
      arguments: { area: 'DC', abstract_domains: 'event', mode: 'sync' },
    },
  },
];

/** Drops spans, counting them: recording and ending spans is paid, exporting is not. */
class DroppingExporter implements SpanExporter {
  spans = 0;
  export(spans: ReadableSpan[], done: (result: { code: ExportResultCode }) => void): void {
    this.spans += spans.length;
    done({ code: ExportResultCode.SUCCESS });
  }
  async shutdown(): Promise<void> {}
  async forceFlush(): Promise<void> {}
}

/** An OTLP/HTTP "collector" that reads and acknowledges every request. */
async function collectorStub(): Promise<{ url: string; requests: () => number; close(): Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function main(): Promise<void> {
  const dropping = new DroppingExporter();
  const collector = await collectorStub();
  const variants: Array<{ name: string; telemetry: Partial<TelemetryOptions> }> = [
    { name: 'off', telemetry: {} },
    { name: 'on (dropping exporter)', telemetry: { spanExporter: dropping } },
    { name: 'on (OTLP to a local stub)', telemetry: { otlpTracesUrl: `${collector.url}/v1/traces` } },
  ];
  const stacks: BenchStack[] = [];
  try {
    for (const variant of variants) stacks.push(await startBenchStack(variant.telemetry));
    console.log(
      `tracing benchmark: ${iterations} sequential tools.call per variant and workload, ${rounds} interleaved rounds`,
    );
    for (const workload of WORKLOADS) {
      const calls = stacks.map((stack) => async () => {
        const reply = await stack.rpc({ jsonrpc: '2.0', id: 1, method: 'tools.call', params: workload.params });
        if (reply.error || reply.result?.isError)
          throw new Error(`call failed: ${JSON.stringify(reply.error ?? reply.result)}`);
      });
      for (const call of calls) await timeSequential(warmup, call);
      const samples: number[][] = calls.map(() => []);
      for (let round = 0; round < rounds; round++) {
        for (const [index, call] of calls.entries())
          samples[index].push(...(await timeSequential(Math.ceil(iterations / rounds), call)));
      }
      report(
        workload.label,
        variants.map((variant, index) => ({ name: variant.name, summary: summarize(samples[index]) })),
      );
    }
    console.log(
      `\nspans recorded by the "on" stack: ${dropping.spans}; OTLP export requests received by the stub: ${collector.requests()}`,
    );
  } finally {
    for (const stack of stacks) await stack.close();
    await collector.close();
  }
}

function report(label: string, rows: Array<{ name: string; summary: LatencySummary }>): void {
  const off = rows[0].summary;
  console.log(`\n${label}`);
  console.log(
    `${'tracing'.padEnd(28)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'mean ms'.padStart(8)} ${'p50 ratio'.padStart(10)} ${'p99 ratio'.padStart(10)}`,
  );
  for (const { name, summary } of rows) {
    console.log(
      `${name.padEnd(28)} ${summary.p50.toFixed(2).padStart(8)} ${summary.p99.toFixed(2).padStart(8)} ${summary.mean.toFixed(2).padStart(8)} ` +
        `${(summary.p50 / off.p50).toFixed(3).padStart(10)} ${(summary.p99 / off.p99).toFixed(3).padStart(10)}`,
    );
  }
  for (const { name, summary } of rows.slice(1)) {
    const added = (summary.p50 / off.p50 - 1) * 100;
    console.log(
      `${name}: ${added >= 0 ? '+' : ''}${added.toFixed(1)}% at p50 (target < 10%): ${added < 10 ? 'met' : 'NOT met'}`,
    );
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
