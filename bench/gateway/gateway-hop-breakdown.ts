/**
 * Where the gateway hop's time goes, by wall clock: small `tools.call`s through
 * the gateway (node:http keep-alive client) with timestamps taken at the HTTP
 * request event, the JSON-RPC dispatch, each guard, the credentials, the gRPC
 * call and the response's `finish`, alternated with the same call made straight
 * to the agents over gRPC. The marks come from wrapping provider methods, so
 * they cost a little themselves; read the p50s as a breakdown, not as the
 * latency (that is gateway-bench's job).
 *
 *   npm run build && node dist/bench/gateway/gateway-hop-breakdown.js [iterations=2000]
 */
import * as http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { DownstreamCredentials } from '../../libs/gateway/src/auth/downstream-credentials.service';
import { AgentsDownstream } from '../../libs/gateway/src/grpc/agents-downstream';
import { IdempotencyInterceptor } from '../../libs/gateway/src/idempotency/idempotency.interceptor';
import { JsonRpcCallExecutor } from '../../libs/json-rpc/src/json-rpc-call-executor';
import { JsonRpcDispatcher } from '../../libs/json-rpc/src/json-rpc-dispatcher';
// The module object, not the function: the controller looks readRawBody up on it at each call.
import * as rawBody from '../../libs/json-rpc/src/raw-body';
import { ParamsBindingGuard } from '../../libs/json-rpc/src/params-binding.guard';
import { CallerRateLimitGuard } from '../../libs/gateway/src/rate-limit/caller-rate-limit.guard';
import { JsonRpcAuthGuard } from '../../libs/json-rpc/src/json-rpc-auth.guard';
import { bearerFor } from '../../test/support/tokens';
import { runBench, startSmallCallStack } from './small-call-stack';
import { invokeTool, jsonPoster, toolServiceClient } from './bench-clients';
import { summarize } from './percentiles';

const iterations = Number(process.argv[2] ?? 2000);
const nowMs = () => Number(process.hrtime.bigint()) / 1e6;

/** Start and end of the latest run of each marked method, for the call in flight. */
let marks: Record<string, number> = {};

function mark(prototype: object, method: string, label: string): void {
  const target = prototype as Record<string, (...args: unknown[]) => unknown>;
  const original = target[method];
  target[method] = function (this: unknown, ...args: unknown[]) {
    marks[`${label}:start`] = nowMs();
    const result = original.apply(this, args);
    if (result instanceof Promise) return result.finally(() => (marks[`${label}:end`] = nowMs()));
    marks[`${label}:end`] = nowMs();
    return result;
  };
}

mark(rawBody, 'readRawBody', 'body');
mark(JsonRpcDispatcher.prototype, 'dispatch', 'dispatch');
mark(JsonRpcCallExecutor.prototype, 'execute', 'execute');
mark(JsonRpcAuthGuard.prototype, 'canActivate', 'auth');
mark(CallerRateLimitGuard.prototype, 'canActivate', 'rate');
mark(ParamsBindingGuard.prototype, 'canActivate', 'bind');
mark(IdempotencyInterceptor.prototype, 'intercept', 'interceptors');
mark(DownstreamCredentials.prototype, 'originFor', 'credentials');
mark(AgentsDownstream.prototype, 'call', 'grpc');
/** The gateway's HTTP server: the MCP server in this process is an http.Server too. */
let gatewayServer: http.Server | undefined;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
  if (event === 'request' && this === gatewayServer) {
    marks['http:request'] = nowMs();
    (args[1] as http.ServerResponse).once('finish', () => (marks['http:finish'] = nowMs()));
  }
  return emit.apply(this, [event, ...args] as Parameters<typeof emit>);
} as typeof emit;

/** Each step: [label, from mark, to mark]; "client:*" are the bench's own timestamps. */
const STEPS: Array<[string, string, string]> = [
  ['client sends → server request event', 'client:start', 'http:request'],
  ['request event → JSON-RPC endpoint (Fastify route, HTTP span)', 'http:request', 'body:start'],
  ['reading the body', 'body:start', 'body:end'],
  ['body read → dispatch', 'body:end', 'dispatch:start'],
  ['dispatch → call executor (JSON parse, envelope)', 'dispatch:start', 'execute:start'],
  ['executor → auth guard (deadline, Nest context)', 'execute:start', 'auth:start'],
  ['auth guard (verify, authorize, audit)', 'auth:start', 'auth:end'],
  ['rate-limit guard', 'rate:start', 'rate:end'],
  ['params binding guard (class-validator)', 'bind:start', 'bind:end'],
  ['bound → interceptors (telemetry span, idempotency)', 'bind:end', 'interceptors:start'],
  ['interceptors → credentials', 'interceptors:start', 'credentials:start'],
  ['credentials (narrowed token)', 'credentials:start', 'credentials:end'],
  ['credentials → gRPC call (transcoding)', 'credentials:end', 'grpc:start'],
  ['gRPC call (agents + MCP)', 'grpc:start', 'grpc:end'],
  ['gRPC answer → dispatch done (transcoding back)', 'grpc:end', 'dispatch:end'],
  ['dispatch done → response finish (interceptors, write)', 'dispatch:end', 'http:finish'],
  ['response finish → client has the body', 'http:finish', 'client:end'],
];

async function main(): Promise<void> {
  const stack = await startSmallCallStack();
  const { agents, gateway } = stack;
  gatewayServer = gateway.app.getHttpServer() as http.Server;
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const authorization = await bearerFor({ audience: 'gateway' });
  const post = jsonPoster(`${gateway.url}/rpc`, authorization, keepAlive);
  let id = 0;
  const viaGateway = async () => {
    const reply = await post({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools.call',
      params: { name: 'echo', server: 'testkit', arguments: { text: 'hi' } },
    });
    if (reply.error) throw new Error(JSON.stringify(reply.error));
  };
  const toolService = toolServiceClient(agents.url);
  const metadata = new grpc.Metadata();
  metadata.set('authorization', await bearerFor({ audience: 'agents' }));
  const viaAgents = () => invokeTool(toolService, metadata, 'echo', 'testkit', { text: 'hi' });

  try {
    for (let index = 0; index < 500; index++) {
      await viaGateway();
      await viaAgents();
    }
    const samples = new Map<string, number[]>();
    const add = (label: string, ms: number) => {
      const values = samples.get(label);
      if (values) values.push(ms);
      else samples.set(label, [ms]);
    };
    for (let index = 0; index < iterations; index++) {
      marks = { 'client:start': nowMs() };
      await viaGateway();
      marks['client:end'] = nowMs();
      for (const [label, from, to] of STEPS) add(label, marks[to] - marks[from]);
      add('= gateway path, total', marks['client:end'] - marks['client:start']);
      const started = nowMs();
      await viaAgents();
      add('agents path (gRPC InvokeTool from this process)', nowMs() - started);
    }
    console.log(`${iterations} small tools.call, alternated with the same InvokeTool straight to the agents`);
    console.log(`${'step'.padEnd(56)} ${'p50 ms'.padStart(8)} ${'mean ms'.padStart(8)}`);
    for (const [label, values] of samples) {
      const summary = summarize(values);
      console.log(`${label.padEnd(56)} ${summary.p50.toFixed(3).padStart(8)} ${summary.mean.toFixed(3).padStart(8)}`);
    }
  } finally {
    keepAlive.destroy();
    toolService.close();
    await stack.close();
  }
}

runBench(main);
