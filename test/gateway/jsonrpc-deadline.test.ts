import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { postRaw, startTestApp, type TestApp } from './jsonrpc-test-app';

const DEFAULT_MS = 2_000;
const MAX_MS = 5_000;

describe('deadlines', () => {
  let server: TestApp;
  before(async () => (server = await startTestApp({ defaultDeadlineMs: DEFAULT_MS, maxDeadlineMs: MAX_MS })));
  after(async () => server.close());
  beforeEach(() => server.probe.reset());

  const send = async (body: unknown, headers: Record<string, string> = {}) =>
    (await postRaw(server.url, JSON.stringify(body), headers)).json as any;
  const echo = (params?: unknown) => ({ jsonrpc: '2.0', method: 'context.echo', params, id: 1 });

  test('a call without a deadline gets the default', async () => {
    const before = Date.now();
    const { result } = await send(echo());
    assert.ok(
      result.deadline >= before + DEFAULT_MS && result.deadline <= Date.now() + DEFAULT_MS,
      String(result.deadline),
    );
    assert.ok(result.remaining > 0 && result.remaining <= DEFAULT_MS);
  });

  test('X-Deadline-Ms sets an absolute deadline', async () => {
    const deadline = Date.now() + 3_000;
    const { result } = await send(echo(), { 'X-Deadline-Ms': String(deadline) });
    assert.equal(result.deadline, deadline);
  });

  test('params.deadline_ms sets it too, is consumed by the gateway, and the earlier of the two wins', async () => {
    const soon = Date.now() + 1_000;
    const later = Date.now() + 4_000;
    assert.equal((await send(echo({ deadline_ms: soon }))).result.deadline, soon);
    assert.equal((await send(echo({ deadline_ms: later }), { 'X-Deadline-Ms': String(soon) })).result.deadline, soon);
    assert.equal((await send(echo({ deadline_ms: soon }), { 'X-Deadline-Ms': String(later) })).result.deadline, soon);
    const reply = await send({
      jsonrpc: '2.0',
      method: 'subtract',
      params: { minuend: 3, subtrahend: 1, deadline_ms: later },
      id: 2,
    });
    assert.equal(reply.result, 2, 'deadline_ms does not trip forbidNonWhitelisted');
  });

  test('a deadline beyond maxDeadlineMs is capped', async () => {
    const before = Date.now();
    const { result } = await send(echo(), { 'X-Deadline-Ms': String(before + 60_000) });
    assert.ok(result.deadline <= Date.now() + MAX_MS && result.deadline >= before + MAX_MS);
  });

  test('a deadline already past is -32000 with hop, and the handler is not called', async () => {
    const past = Date.now() - 1;
    const reply = await send(echo(), { 'X-Deadline-Ms': String(past) });
    assert.equal(reply.error.code, -32000);
    assert.equal(reply.error.message, 'Deadline exceeded');
    assert.equal(reply.error.data.hop, 'gateway.admission');
    assert.equal(reply.error.data.deadline_ms, past);
    assert.equal(reply.error.data.recovery_hint, 'RETRY_WITH_LONGER_DEADLINE');
    assert.equal(server.probe.lastContext, undefined);
    const viaParams = await send(echo({ deadline_ms: 1 }));
    assert.equal(viaParams.error.data.hop, 'gateway.admission');
  });

  test('a handler still running at the deadline is answered -32000 and its signal aborts', async () => {
    // The handler would run for HANDLER_MS unless aborted: an answer before then came from the deadline.
    const HANDLER_MS = 5_000; // the most SlowParams allows
    const started = Date.now();
    const reply = await send(
      { jsonrpc: '2.0', method: 'slow', params: { ms: HANDLER_MS, tag: 'late' }, id: 1 },
      { 'X-Deadline-Ms': String(Date.now() + 150) },
    );
    assert.ok(Date.now() - started < HANDLER_MS, 'answered at the deadline, not when the handler ended');
    assert.equal(reply.error.code, -32000);
    assert.equal(reply.error.data.hop, 'gateway.handler');
    assert.deepEqual(server.probe.abortedCalls, ['late']);
  });

  test('in a batch, the header deadline binds every call and params can only shorten it', async () => {
    const batchDeadline = Date.now() + 3_000;
    const earlier = Date.now() + 1_000;
    const replies = await send(
      [
        echo(),
        { ...echo({ deadline_ms: batchDeadline + 1_000 }), id: 2 },
        { ...echo({ deadline_ms: earlier }), id: 3 },
      ],
      { 'X-Deadline-Ms': String(batchDeadline) },
    );
    assert.deepEqual(
      replies.map((reply: any) => reply.result.deadline),
      [batchDeadline, batchDeadline, earlier],
    );
  });

  test('in a batch without header, params cannot extend past the default', async () => {
    const before = Date.now();
    const replies = await send([echo({ deadline_ms: before + 4_000 })]);
    assert.ok(replies[0].result.deadline <= Date.now() + DEFAULT_MS);
  });

  test('malformed deadlines are rejected', async () => {
    const header = await send(echo(), { 'X-Deadline-Ms': 'tomorrow' });
    assert.equal(header.error.code, -32600);
    assert.equal(header.error.data.header, 'X-Deadline-Ms');
    const param = await send(echo({ deadline_ms: 'soon' }));
    assert.equal(param.error.code, -32602);
    assert.equal(param.error.data.fields[0].path, 'deadline_ms');
  });
});
