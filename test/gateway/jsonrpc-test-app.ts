import 'reflect-metadata';
import {
  ForbiddenException,
  Injectable,
  Module,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type INestApplication,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Metadata, status as GrpcStatus } from '@grpc/grpc-js';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  ValidateNested,
} from 'class-validator';
import {
  JsonRpcError,
  JsonRpcMethod,
  JsonRpcModule,
  type JsonRpcCallContext,
  type JsonRpcModuleOptions,
} from '@s2sp/json-rpc';

export class SubtractParams {
  @IsNumber()
  minuend!: number;

  @IsNumber()
  subtrahend!: number;
}

export class SumParams {
  @IsArray()
  @IsNumber({}, { each: true })
  values!: number[];
}

export class SlowParams {
  @IsInt()
  @Min(0)
  @Max(5000)
  ms!: number;

  @IsOptional()
  @IsString()
  tag?: string;
}

export class ConstraintsDto {
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(50)
  max_steps?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  token_budget?: number;
}

export class ContextRefDto {
  @IsString()
  @IsNotEmpty()
  uri!: string;
}

export class SubmitTaskParams {
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  objective!: string;

  @IsOptional()
  @IsIn(['planner', 's2sp-pipeline'])
  agent_type?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => ConstraintsDto)
  constraints?: ConstraintsDto;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(10)
  @ValidateNested({ each: true })
  @Type(() => ContextRefDto)
  context_refs?: ContextRefDto[];

  @IsOptional()
  @IsString({ each: true })
  tags?: string[];

  @IsOptional()
  @IsBoolean()
  dry_run?: boolean;

  @IsOptional()
  @IsObject()
  metadata?: Record<string, unknown>;
}

export class SubmitTaskResult {
  @IsString()
  task_id!: string;

  @IsIn(['ACCEPTED'])
  status!: string;
}

/** What the sample handlers observed, for assertions. */
@Injectable()
export class Probe {
  notifications: Array<{ method: string; params: unknown }> = [];
  inFlight = 0;
  maxInFlight = 0;
  lastContext?: JsonRpcCallContext;
  abortedCalls: string[] = [];

  reset(): void {
    this.notifications = [];
    this.inFlight = 0;
    this.maxInFlight = 0;
    this.lastContext = undefined;
    this.abortedCalls = [];
  }
}

class DenyAllGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.getType<string>() !== 'json-rpc';
  }
}

@Injectable()
export class SampleMethods {
  constructor(private readonly probe: Probe) {}

  @JsonRpcMethod('subtract', {
    params: SubtractParams,
    positional: ['minuend', 'subtrahend'],
    summary: 'minuend - subtrahend',
    idempotent: true,
    result: { type: 'number' },
  })
  subtract(params: SubtractParams): number {
    return params.minuend - params.subtrahend;
  }

  @JsonRpcMethod('sum', { params: SumParams, positional: { rest: 'values' }, result: { type: 'number' } })
  sum(params: SumParams): number {
    return params.values.reduce((total, value) => total + value, 0);
  }

  @JsonRpcMethod('update')
  update(params: unknown): void {
    this.probe.notifications.push({ method: 'update', params });
  }

  @JsonRpcMethod('notify_hello')
  notifyHello(params: unknown): void {
    this.probe.notifications.push({ method: 'notify_hello', params });
  }

  @JsonRpcMethod('notify_sum')
  notifySum(params: unknown): void {
    this.probe.notifications.push({ method: 'notify_sum', params });
  }

  @JsonRpcMethod('get_data', { description: 'Returns fixed data, as in the specification examples' })
  getData(): unknown[] {
    return ['hello', 5];
  }

  @JsonRpcMethod('slow', { params: SlowParams })
  async slow(params: SlowParams, ctx: JsonRpcCallContext): Promise<string> {
    this.probe.inFlight++;
    this.probe.maxInFlight = Math.max(this.probe.maxInFlight, this.probe.inFlight);
    try {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, params.ms);
        ctx.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          this.probe.abortedCalls.push(params.tag ?? '');
          resolve();
        });
      });
      return params.tag ?? 'done';
    } finally {
      this.probe.inFlight--;
    }
  }

  @JsonRpcMethod('task.submit', { params: SubmitTaskParams, result: SubmitTaskResult, summary: 'Submit an agent task' })
  submitTask(
    params: SubmitTaskParams,
    ctx: JsonRpcCallContext,
  ): SubmitTaskResult & { echo: SubmitTaskParams; deadline: number } {
    return { task_id: 'task-1', status: 'ACCEPTED', echo: params, deadline: ctx.deadline };
  }

  @JsonRpcMethod('context.echo')
  contextEcho(_params: unknown, ctx: JsonRpcCallContext): Record<string, unknown> {
    this.probe.lastContext = ctx;
    return {
      method: ctx.method,
      id: ctx.id ?? 'none',
      deadline: ctx.deadline,
      remaining: ctx.remainingMs(),
      trace_id: ctx.traceId ?? null,
      caller: ctx.caller.subject,
      header: ctx.headers['x-test'] ?? null,
    };
  }

  @JsonRpcMethod('explode')
  explode(): never {
    throw new Error('secret: connection to postgres://admin:hunter2@10.0.0.5 refused');
  }

  @JsonRpcMethod('explode.async')
  async explodeAsync(): Promise<never> {
    await Promise.resolve();
    throw new TypeError("Cannot read properties of undefined (reading 'password')");
  }

  @JsonRpcMethod('fail.recursion')
  failRecursion(): never {
    throw JsonRpcError.agentExecution(1003, 'Agent recursion depth exceeded', {
      max_depth: 8,
      current_depth: 9,
      agent_id: 'planner-v2',
      recovery_hint: 'REDUCE_DECOMPOSITION_GRANULARITY',
    });
  }

  @JsonRpcMethod('fail.grpc.unavailable')
  failGrpcUnavailable(): never {
    throw Object.assign(new Error('14 UNAVAILABLE: connect ECONNREFUSED 10.0.0.7:50051'), {
      code: GrpcStatus.UNAVAILABLE,
      details: 'connect ECONNREFUSED 10.0.0.7:50051',
      metadata: new Metadata(),
    });
  }

  @JsonRpcMethod('fail.rate')
  failRate(): never {
    throw JsonRpcError.rateLimited(30);
  }

  @JsonRpcMethod('unserializable')
  unserializable(): bigint {
    return 10n;
  }

  @JsonRpcMethod('guarded')
  @UseGuards(DenyAllGuard)
  guarded(): string {
    return 'should not get here';
  }
}

@Injectable()
export class ForbiddenMethods {
  @JsonRpcMethod('forbidden.http')
  forbidden(): never {
    throw new ForbiddenException('missing scope tasks:write');
  }
}

export interface TestApp {
  app: INestApplication;
  url: string;
  probe: Probe;
  close(): Promise<void>;
}

/** The HTTP adapters the engine is served on: Fastify is what the gateway ships, Express what Nest defaults to. */
export const HTTP_ADAPTERS = ['fastify', 'express'] as const;
export type HttpAdapterName = (typeof HTTP_ADAPTERS)[number];

export async function startTestApp(
  options: JsonRpcModuleOptions = {},
  adapter: HttpAdapterName = 'fastify',
): Promise<TestApp> {
  @Module({
    imports: [JsonRpcModule.forRoot(options)],
    providers: [Probe, SampleMethods, ForbiddenMethods],
  })
  class TestAppModule {}

  const app =
    adapter === 'fastify'
      ? await NestFactory.create(TestAppModule, new FastifyAdapter(), { logger: false })
      : await NestFactory.create(TestAppModule, { bodyParser: false, logger: false });
  await app.listen(0, '127.0.0.1');
  const url = `${(await app.getUrl()).replace('[::1]', '127.0.0.1')}/rpc`;
  return { app, url, probe: app.get(Probe), close: () => app.close() };
}

/** POSTs raw text; returns status, content type and the body text. `signal` bounds the whole exchange. */
export async function postRaw(
  url: string,
  body: string | Uint8Array,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; contentType: string | null; text: string; json: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    ...(signal ? { signal } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type'), text, json };
}
