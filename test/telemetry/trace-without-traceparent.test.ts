import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Controller, Get, Module, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { context, trace } from '@opentelemetry/api';
import { JsonLogger, TelemetryModule, type JsonLogRecord } from '../../libs/telemetry/src';
import { CLIENT_TRACE_ID, CLIENT_TRACEPARENT } from './telemetry-fixtures';

const lines: JsonLogRecord[] = [];
const logger = new JsonLogger({
  service: 'under-test',
  write: (line) => lines.push(JSON.parse(line) as JsonLogRecord),
});

@Controller()
class WhoAmIController {
  /** Logs one line and answers with the trace the handler runs in. */
  @Get('whoami')
  whoAmI(): { traceId?: string; spanId?: string } {
    logger.log('handling whoami', 'WhoAmI');
    const spanContext = trace.getSpanContext(context.active());
    return { traceId: spanContext?.traceId, spanId: spanContext?.spanId };
  }
}

// Neither spans exported nor recorded (no exporter, no OTLP endpoint): the default of `npm start`.
for (const metrics of [true, false]) {
  describe(`tracing off (metrics ${metrics ? 'on' : 'off'}): every request still runs in a trace`, () => {
    let app: INestApplication;
    let base: string;
    before(async () => {
      @Module({
        imports: [TelemetryModule.forRoot({ serviceName: 'under-test', tracing: false, metrics })],
        controllers: [WhoAmIController],
      })
      class AppModule {}
      app = await NestFactory.create(AppModule, { logger: false });
      await app.listen(0, '127.0.0.1');
      base = await app.getUrl();
    });
    after(() => app.close());

    const whoAmI = async (headers: Record<string, string> = {}) => {
      lines.length = 0;
      const answer = (await (await fetch(`${base}/whoami`, { headers })).json()) as {
        traceId?: string;
        spanId?: string;
      };
      return { answer, line: lines.find((line) => line.message === 'handling whoami') };
    };

    test('without a traceparent the request starts a trace of its own: its ids are on the log line', async () => {
      const first = await whoAmI();
      assert.match(String(first.answer.traceId), /^[0-9a-f]{32}$/);
      assert.match(String(first.answer.spanId), /^[0-9a-f]{16}$/);
      assert.equal(first.line?.trace_id, first.answer.traceId);
      assert.equal(first.line?.span_id, first.answer.spanId);
      const second = await whoAmI();
      assert.notEqual(second.answer.traceId, first.answer.traceId, 'one trace per request');
    });

    test("with a traceparent the caller's trace is continued", async () => {
      const { answer, line } = await whoAmI({ traceparent: CLIENT_TRACEPARENT });
      assert.equal(answer.traceId, CLIENT_TRACE_ID);
      assert.equal(line?.trace_id, CLIENT_TRACE_ID);
    });
  });
}
