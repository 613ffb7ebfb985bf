/**
 * What each piece of the gateway costs in situ: small `tools.call`s through the gateway,
 * alternating calls with one piece switched off (replaced by its cheapest stand-in) and
 * calls with everything on, in one process; the cost is the median of the paired
 * differences. In the in-process stack code runs far colder than in a tight loop
 * (class-validator's `validate()`: ≈ 3.5 µs in a loop, ≈ 45 µs here), so this is how the
 * bench README attributes the hop. "none" switches nothing off: its reading is the noise.
 *
 * Stand-ins skip work the gateway must do (auth, validation, metrics): they exist only in
 * this process, for measuring.
 *
 *   npm run build && node dist/bench/gateway/gateway-hop-ablation.js [pairs=2000] [piece ...]
 */
import * as http from 'node:http';
import type { CallHandler, ExecutionContext } from '@nestjs/common';
import { DownstreamCredentials } from '../../libs/gateway/src/auth/downstream-credentials.service';
import { AgentsCircuitBreaker } from '../../libs/gateway/src/grpc/agents-circuit-breaker';
import { IdempotencyInterceptor } from '../../libs/gateway/src/idempotency/idempotency.interceptor';
import { ParamsValidationPlan } from '../../libs/json-rpc/src/params-validation-plan';
import { CallerRateLimitGuard } from '../../libs/gateway/src/rate-limit/caller-rate-limit.guard';
import { AuthorizationGate } from '../../libs/auth/src/authorization/authorization-gate';
import { HttpExchangeTelemetry } from '../../libs/telemetry/src/http/http-exchange-telemetry';
import { TelemetryInterceptor } from '../../libs/telemetry/src/interceptors/telemetry.interceptor';
import { Telemetry } from '../../libs/telemetry/src/telemetry';
import { bearerFor } from '../../test/support/tokens';
import { runBench, startSmallCallStack } from './small-call-stack';
import { jsonPoster } from './bench-clients';
import { median } from './percentiles';

type AnyFunction = (...args: any[]) => any;

/** The piece switched off for the call in flight (undefined: everything on). */
let switchedOff: string | undefined;

/** The pieces that can be switched off, in the order they were registered. */
const PIECES: string[] = [];

/** Replaces `owner[method]` by `replacement` while `piece` is switched off. */
function standIn(
  piece: string,
  owner: object,
  method: string,
  replacement: (original: AnyFunction, ...args: any[]) => unknown,
): void {
  if (!PIECES.includes(piece)) PIECES.push(piece);
  const target = owner as Record<string, AnyFunction>;
  const original = target[method];
  target[method] = function (this: unknown, ...args: unknown[]) {
    return switchedOff === piece ? replacement(original.bind(this), ...args) : original.apply(this, args);
  };
}

async function main(): Promise<void> {
  const pairs = Number(process.argv[2] ?? 2000);
  const stack = await startSmallCallStack();
  const { gateway } = stack;

  // Instance-level stand-ins where the class is shared with the agents in this process.
  const metrics = gateway.app.get(Telemetry).metrics as unknown as Record<string, AnyFunction>;
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(metrics)).filter((name) =>
    name.startsWith('record'),
  )) {
    standIn('metric records', metrics, name, () => undefined);
  }
  const gate = gateway.app.get(AuthorizationGate);
  let grant: unknown;
  standIn(
    'auth gate (verify, authorize, audit)',
    gate,
    'check',
    async (original, ...args) => (grant ??= await original(...args)),
  );
  const credentials = gateway.app.get(DownstreamCredentials);
  let authorization: string | undefined;
  standIn('narrowed credentials', credentials, 'originFor', async (original, ctx, ...args) => {
    authorization ??= (await original(ctx, ...args)).authorization;
    return { deadline: ctx.deadline, signal: ctx.signal, headers: ctx.headers, caller: ctx.caller, authorization };
  });
  // Gateway-only classes: prototype-level stand-ins.
  standIn('params validation plan (off = class-validator every call)', ParamsValidationPlan, 'of', () => undefined);
  standIn('rate-limit guard', CallerRateLimitGuard.prototype, 'canActivate', async () => true);
  standIn(
    'idempotency interceptor',
    IdempotencyInterceptor.prototype,
    'intercept',
    (_original, _context, next: CallHandler) => next.handle(),
  );
  // Shared with the agents and the MCP server: only the gateway's JSON-RPC calls skip it.
  standIn(
    'telemetry interceptor',
    TelemetryInterceptor.prototype,
    'intercept',
    (original, context: ExecutionContext, next: CallHandler) =>
      context.getType<string>() === 'json-rpc' ? next.handle() : original(context, next),
  );
  standIn(
    'HTTP exchange telemetry',
    HttpExchangeTelemetry.prototype,
    'observe',
    (_original, _plan, _request, _response, handle: () => Promise<void>) => handle(),
  );
  standIn('circuit breaker', gateway.app.get(AgentsCircuitBreaker), 'run', (_original, call: () => Promise<unknown>) =>
    call(),
  );

  // "none" switches nothing off: its reading is the noise.
  const pieces = process.argv.length > 3 ? process.argv.slice(3) : ['none', ...PIECES];
  const unknown = pieces.filter((piece) => piece !== 'none' && !PIECES.includes(piece));
  if (unknown.length > 0)
    throw new Error(
      `unknown piece(s) ${JSON.stringify(unknown)}; known: none, ${PIECES.map((piece) => JSON.stringify(piece)).join(', ')}`,
    );
  const keepAlive = new http.Agent({ keepAlive: true });
  const post = jsonPoster(`${gateway.url}/rpc`, await bearerFor({ audience: 'gateway' }), keepAlive);
  let id = 0;
  const call = async (): Promise<number> => {
    const started = process.hrtime.bigint();
    const reply = await post({
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools.call',
      params: { name: 'echo', server: 'testkit', arguments: { text: 'hi' } },
    });
    if (reply.error) throw new Error(JSON.stringify(reply.error));
    return Number(process.hrtime.bigint() - started) / 1e6;
  };

  try {
    for (let index = 0; index < 1500; index++) await call(); // JIT, connections, caches
    console.log(
      `${pairs} pairs of small tools.call per piece: with the piece, and with it switched off (order alternating)`,
    );
    console.log(`${'piece'.padEnd(60)} ${'with p50'.padStart(9)} ${'without'.padStart(9)} ${'cost µs'.padStart(8)}`);
    for (const piece of pieces) {
      for (let index = 0; index < 500; index++) {
        switchedOff = index % 2 === 0 ? piece : undefined;
        await call();
      }
      const withPiece: number[] = [];
      const withoutPiece: number[] = [];
      for (let index = 0; index < pairs; index++) {
        const offFirst = index % 2 === 0;
        switchedOff = offFirst ? piece : undefined;
        const first = await call();
        switchedOff = offFirst ? undefined : piece;
        const second = await call();
        withPiece.push(offFirst ? second : first);
        withoutPiece.push(offFirst ? first : second);
      }
      switchedOff = undefined;
      const cost = median(withPiece.map((ms, index) => ms - withoutPiece[index]));
      console.log(
        `${piece.padEnd(60)} ${median(withPiece).toFixed(3).padStart(9)} ${median(withoutPiece).toFixed(3).padStart(9)} ${(cost * 1000).toFixed(0).padStart(8)}`,
      );
    }
  } finally {
    keepAlive.destroy();
    await stack.close();
  }
}

runBench(main);
