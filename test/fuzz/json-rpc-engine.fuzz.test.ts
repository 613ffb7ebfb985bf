import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import {
  anyString,
  fuzz,
  fuzzTimeout,
  jsonText,
  leafText,
  numberText,
  objectText,
  PROTOTYPE_KEYS,
  quotedJson as quoted,
} from '../support/fuzz';
import { HTTP_ADAPTERS, postRaw, startTestApp, type HttpAdapterName, type TestApp } from '../gateway/jsonrpc-test-app';

// Invariant: whatever bytes are POSTed to /rpc, the answer is a valid JSON-RPC 2.0
// reply: a parse error for what is not UTF-8 JSON, one -32600 for an empty or
// oversized batch or an oversized body, otherwise one response per request that
// is not a valid notification (in order, its id echoed; -32600 with the id or
// null for an invalid request), 204 with no body when nothing is owed; never
// another status, a stack trace, a leaked internal message, a polluted prototype
// or an exchange that outlives its timeout.

const MAX_BATCH_SIZE = 10;
const MAX_BODY_BYTES = 64 * 1024;
const MAX_PARAMS_STRING_LENGTH = 4096;
const EXCHANGE_TIMEOUT_MS = 10_000;
/** Member names the engine or the test app's methods look at. */
const NAMES = ['jsonrpc', 'method', 'params', 'id', 'minuend', 'subtrahend', 'values', 'objective'];
/** Methods of the test app that answer at once (slow is left out: it sleeps on purpose). */
const METHODS = [
  'subtract',
  'sum',
  'update',
  'notify_hello',
  'get_data',
  'task.submit',
  'context.echo',
  'explode',
  'explode.async',
  'fail.recursion',
  'fail.grpc.unavailable',
  'fail.rate',
  'unserializable',
  'guarded',
  'forbidden.http',
  'rpc.discover',
] as const;

const memberName = fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS, ...NAMES), fc.string({ maxLength: 6 }));
const anyJson = jsonText(NAMES);

/** Params nested `depth` levels deep, past the engine's params depth limit at times. */
const deepParams = fc.integer({ min: 1, max: 3000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`);
/** Strings past the params string limit, and past the body limit. */
const hugeString = fc
  .constantFrom(MAX_PARAMS_STRING_LENGTH + 1, 40_000, MAX_BODY_BYTES + 1)
  .map((length) => quoted('x'.repeat(length)));

const idText = fc.oneof(
  fc.string().map(quoted),
  fc.integer().map(String),
  numberText,
  fc.constant('null'),
  fc.constantFrom('true', '{}', '[]', '[1]', '{"__proto__":1}'),
);

const paramsText = fc.oneof(
  fc.record({ minuend: numberText, subtrahend: numberText }).map((params) => objectText(Object.entries(params))),
  fc.array(numberText, { maxLength: 5 }).map((values) => `[${values.join(',')}]`),
  fc.array(fc.tuple(memberName, anyJson), { maxLength: 5 }).map(objectText),
  anyJson,
  deepParams,
);

/** One element of a payload: mostly request-like objects, the members in any order, some missing or wrong. */
const requestText = fc
  .record(
    {
      jsonrpc: fc.oneof(
        fc.constant('"2.0"'),
        fc.constant('"2.0"'),
        fc.constantFrom('"1.0"', '2.0', 'null', '"2.0 "'),
        leafText,
      ),
      method: fc.oneof(
        fc.constantFrom(...METHODS).map(quoted),
        fc.constantFrom(...PROTOTYPE_KEYS, 'rpc.', '').map(quoted),
        anyString.map(quoted),
        leafText,
      ),
      params: paramsText,
      id: idText,
      extra: fc.array(fc.tuple(fc.constantFrom(...PROTOTYPE_KEYS, 'result', 'error'), anyJson), { maxLength: 2 }),
    },
    { requiredKeys: ['jsonrpc', 'method'] },
  )
  .chain(({ extra, ...members }) => {
    const entries: Array<[string, string]> = [...Object.entries(members), ...(extra ?? [])];
    return fc.shuffledSubarray(entries, { minLength: entries.length });
  })
  .map(objectText);

const elementText = fc.oneof({ weight: 8, arbitrary: requestText }, { weight: 1, arbitrary: anyJson });

const payloadText = fc.oneof(
  { weight: 6, arbitrary: elementText },
  {
    weight: 4,
    arbitrary: fc.array(elementText, { maxLength: MAX_BATCH_SIZE + 2 }).map((items) => `[${items.join(',')}]`),
  },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 1, max: 20_000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  },
  { weight: 1, arbitrary: fc.string() },
  {
    weight: 1,
    arbitrary: fc.tuple(hugeString, fc.constantFrom('method', 'params', 'id')).map(([huge, member]) =>
      objectText([
        ['jsonrpc', '"2.0"'],
        ['method', '"task.submit"'],
        ['id', '1'],
        [member, member === 'params' ? `{"objective":${huge}}` : huge],
      ]),
    ),
  },
);

/** Byte-level damage: bytes that are not UTF-8, cuts and insertions. */
const mutation = fc.oneof(
  { weight: 6, arbitrary: fc.constant((bytes: Uint8Array) => bytes) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(
        fc.nat(),
        fc.constantFrom([0xff], [0xc0, 0x80], [0xed, 0xa0, 0x80], [0x80], [0xe2, 0x82], [0xef, 0xbb, 0xbf], [0x00]),
      )
      .map(
        ([at, inserted]) =>
          (bytes: Uint8Array) =>
            splice(bytes, at % (bytes.length + 1), 0, [...inserted]),
      ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.nat({ max: 8 })).map(
      ([at, count]) =>
        (bytes: Uint8Array) =>
          splice(bytes, at % (bytes.length + 1), count, []),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })).map(
      ([at, byte]) =>
        (bytes: Uint8Array) =>
          splice(bytes, at % (bytes.length + 1), 1, [byte]),
    ),
  },
);

function splice(bytes: Uint8Array, at: number, remove: number, insert: number[]): Uint8Array {
  return Buffer.concat([bytes.subarray(0, at), Uint8Array.from(insert), bytes.subarray(at + remove)]);
}

const headers = fc.record<Record<string, string>>(
  {
    'x-deadline-ms': fc.oneof(
      fc.nat().map(String),
      fc.string({ maxLength: 8 }).filter((text) => /^[\x20-\x7e]*$/.test(text)),
    ),
    'content-type': fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', ''),
    traceparent: fc.constantFrom('00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'garbage'),
  },
  { requiredKeys: [] },
);

type Id = string | number | null;
/** What one element of the payload is owed: nothing (a notification), or a response with this id. */
type Owed = { kind: 'response'; id: Id } | { kind: 'invalid'; id: Id };

function isId(value: unknown): value is Id {
  return value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** The oracle for one parsed element, from the JSON-RPC 2.0 request object rules. */
function owedFor(item: unknown): Owed | undefined {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return { kind: 'invalid', id: null };
  const request = item as Record<string, unknown>;
  const hasId = Object.prototype.hasOwnProperty.call(request, 'id');
  const id = hasId && isId(request.id) ? request.id : null;
  const params = Object.prototype.hasOwnProperty.call(request, 'params') ? request.params : [];
  const valid =
    (!hasId || isId(request.id)) &&
    request.jsonrpc === '2.0' &&
    typeof request.method === 'string' &&
    params !== null &&
    typeof params === 'object';
  if (!valid) return { kind: 'invalid', id };
  return hasId ? { kind: 'response', id } : undefined;
}

type Expectation =
  { single: 'parse-error' | 'invalid-request' } | { single: Owed | undefined } | { batch: Array<Owed | undefined> };

function expectationFor(body: Uint8Array): Expectation {
  if (body.length > MAX_BODY_BYTES) return { single: 'invalid-request' };
  let payload: unknown;
  try {
    payload = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body));
  } catch {
    return { single: 'parse-error' };
  }
  if (!Array.isArray(payload)) return { single: owedFor(payload) };
  if (payload.length === 0 || payload.length > MAX_BATCH_SIZE) return { single: 'invalid-request' };
  return { batch: payload.map(owedFor) };
}

/** Asserts that `response` is a JSON-RPC response object owed as `owed`. */
function assertResponse(response: unknown, owed: Owed | 'parse-error' | 'invalid-request'): void {
  assert.ok(response !== null && typeof response === 'object' && !Array.isArray(response), 'a response is an object');
  const { jsonrpc, id, result, error, ...rest } = response as Record<string, unknown>;
  assert.deepEqual(rest, {}, 'a response has no other members');
  assert.equal(jsonrpc, '2.0');
  assert.ok((result === undefined) !== (error === undefined), 'exactly one of result and error');
  if (error !== undefined) {
    const { code, message } = error as Record<string, unknown>;
    assert.ok(Number.isInteger(code), 'error.code is an integer');
    assert.equal(typeof message, 'string');
  }
  if (owed === 'parse-error' || owed === 'invalid-request') {
    assert.equal(id, null);
    assert.equal((error as { code: number } | undefined)?.code, owed === 'parse-error' ? -32700 : -32600);
    return;
  }
  if (owed.kind === 'invalid') {
    assert.equal((error as { code: number } | undefined)?.code, -32600);
    assert.ok(
      id === null || Object.is(id, normalizedId(owed.id)),
      `an invalid request answers with its id or null, got ${JSON.stringify(id)}`,
    );
    return;
  }
  assert.deepEqual(id, normalizedId(owed.id), 'the id is echoed');
}

/** An id as it comes back through JSON (-0 is written as 0). */
function normalizedId(id: Id): Id {
  return JSON.parse(JSON.stringify(id)) as Id;
}

function checkReply(
  reply: { status: number; text: string; json: unknown; contentType: string | null },
  expected: Expectation,
): void {
  assert.ok(reply.status === 200 || reply.status === 204, `status ${reply.status}`);
  assert.doesNotMatch(reply.text, /\n\s+at |\bat [^\s"]+ \(.*:\d+:\d+\)/, 'no stack trace');
  assert.doesNotMatch(reply.text, /hunter2|postgres:\/\/|reading 'password'/, 'no internal error message');
  const owed = 'batch' in expected ? expected.batch.filter((item): item is Owed => item !== undefined) : [];
  const nothingOwed = 'batch' in expected ? owed.length === 0 : expected.single === undefined;
  if (nothingOwed) {
    assert.equal(reply.status, 204);
    assert.equal(reply.text, '');
    return;
  }
  assert.equal(reply.status, 200);
  assert.match(reply.contentType ?? '', /^application\/json/);
  if ('batch' in expected) {
    assert.ok(Array.isArray(reply.json), 'a batch gets an array');
    assert.equal(reply.json.length, owed.length, 'one response per request owed one');
    reply.json.forEach((response, index) => assertResponse(response, owed[index]));
  } else {
    assertResponse(reply.json, expected.single!);
  }
}

function prototypeShape(): string {
  return [Object.prototype, Array.prototype, Function.prototype]
    .map((proto) => Object.getOwnPropertyNames(proto).sort().join(','))
    .join('|');
}

describe('fuzz: JSON-RPC engine over HTTP', () => {
  const servers = new Map<HttpAdapterName, TestApp>();
  before(async () => {
    for (const adapter of HTTP_ADAPTERS)
      servers.set(
        adapter,
        await startTestApp(
          {
            maxBatchSize: MAX_BATCH_SIZE,
            maxBodyBytes: MAX_BODY_BYTES,
            maxParamsStringLength: MAX_PARAMS_STRING_LENGTH,
          },
          adapter,
        ),
      );
  });
  after(async () => {
    for (const server of servers.values()) await server.close();
  });

  test(
    'any body gets a valid JSON-RPC reply (ids echoed, nothing for notifications), never a 5xx, a stack trace, pollution or a hang',
    { timeout: fuzzTimeout(50) },
    async () => {
      const shape = prototypeShape();
      const property = fc.asyncProperty(
        fc.constantFrom(...HTTP_ADAPTERS),
        payloadText,
        mutation,
        headers,
        async (adapter, text, mutate, sent) => {
          const server = servers.get(adapter)!;
          server.probe.reset();
          const body = mutate(new TextEncoder().encode(text));
          const reply = await postRaw(server.url, body, sent, AbortSignal.timeout(EXCHANGE_TIMEOUT_MS));
          checkReply(reply, expectationFor(body));
          assert.equal(prototypeShape(), shape, 'no built-in prototype gained or lost a member');
          assert.equal(({} as Record<string, unknown>).polluted, undefined);
        },
      );
      await fuzz('json-rpc engine', property);
    },
  );
});
