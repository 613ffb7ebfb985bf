// How the framework-overhead bench adds up the slices in which its servers take turns
// (bench/framework-overhead/phase-slices.ts).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { inTurns, phaseOfSlices, type Slice } from '../../bench/framework-overhead/phase-slices';

function slice(calls: number, elapsedMs: number, cpuMs: number, errors = 0): Slice {
  return { calls, elapsedMs, cpuMs, errors, latenciesMs: Array.from({ length: calls }, (_, index) => index) };
}

test('a server’s rate over its slices is its calls over its time, not the mean of the slices’ rates', () => {
  // 200 calls/s for half a second, then 300 calls/s for a second: 400 calls in 1.5 s.
  const phase = phaseOfSlices([slice(100, 500, 50, 1), slice(300, 1000, 90, 2)]);
  assert.equal(phase.callsPerSecond.toFixed(3), (400 / 1.5).toFixed(3));
  assert.equal(phase.cpuMsPerCall, 140 / 400);
  assert.equal(phase.errors, 3);
  assert.equal(phase.latenciesMs.length, 400);
});

test('a server that answered nothing has no CPU per call rather than zero', () => {
  const phase = phaseOfSlices([slice(0, 500, 40, 7)]);
  assert.equal(phase.callsPerSecond, 0);
  assert.ok(Number.isNaN(phase.cpuMsPerCall));
  assert.equal(phase.errors, 7);
});

test('the servers take turns, one slice each, as many times as there are slices', async () => {
  const order: string[] = [];
  const taken = await inTurns(['a', 'b', 'c'], 3, async (server) => {
    order.push(server);
    return slice(order.length, 10, 1);
  });
  assert.deepEqual(order, ['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
  assert.deepEqual(
    taken.map((slices) => slices.map((each) => each.calls)),
    [
      [1, 4, 7],
      [2, 5, 8],
      [3, 6, 9],
    ],
  );
});
