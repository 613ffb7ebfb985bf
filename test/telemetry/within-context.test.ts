import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { context, createContextKey, ROOT_CONTEXT } from '@opentelemetry/api';
import { installGlobalPropagation } from '../../libs/telemetry/src';
import { withinContext } from '../../libs/telemetry/src/tracing/within-context';

const KEY = createContextKey('s2sp.test.key');

describe('withinContext', () => {
  installGlobalPropagation();

  test('another context is active inside fn, across awaits, and only there', async () => {
    const target = ROOT_CONTEXT.setValue(KEY, 'call-1');
    const seen = await withinContext(target, async () => {
      const before = context.active().getValue(KEY);
      await new Promise((resolve) => setImmediate(resolve));
      return [before, context.active().getValue(KEY)];
    });
    assert.deepEqual(seen, ['call-1', 'call-1']);
    assert.equal(context.active().getValue(KEY), undefined);
  });

  test("the context already active stays active, and fn's result comes back", async () => {
    const outer = ROOT_CONTEXT.setValue(KEY, 'outer');
    await context.with(outer, async () => {
      const result = await withinContext(context.active(), async () => {
        await new Promise((resolve) => setImmediate(resolve));
        return context.active().getValue(KEY);
      });
      assert.equal(result, 'outer');
    });
    assert.equal(
      withinContext(ROOT_CONTEXT, () => 42),
      42,
    );
  });
});
