import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CircuitBreaker, CircuitOpenError, type CircuitBreakerOptions } from '../../libs/platform/src/internal';
import { ManualClock } from '../support/manual-clock';

const OPTIONS = { windowMs: 10_000, minimumCalls: 4, errorRateThreshold: 0.5, openDurationMs: 5_000 };

function breaker(overrides: Partial<CircuitBreakerOptions> = {}): { circuit: CircuitBreaker; clock: ManualClock } {
  const clock = new ManualClock();
  return { circuit: new CircuitBreaker('agents', { ...OPTIONS, now: clock.now, ...overrides }), clock };
}

const ok = async (): Promise<string> => 'ok';
const boom = async (): Promise<never> => {
  throw new Error('downstream failed');
};

async function fail(circuit: CircuitBreaker, times = 1): Promise<void> {
  for (let index = 0; index < times; index++) await assert.rejects(circuit.run(boom), /downstream failed/);
}

async function succeed(circuit: CircuitBreaker, times = 1): Promise<void> {
  for (let index = 0; index < times; index++) assert.equal(await circuit.run(ok), 'ok');
}

/** A call the test finishes by hand, to hold a probe in flight. */
function deferred(): { promise: Promise<string>; resolve: (value: string) => void; reject: (error: Error) => void } {
  let resolve!: (value: string) => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<string>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('CircuitBreaker (libs/platform)', () => {
  test('starts closed and stays closed on success', async () => {
    const { circuit } = breaker();
    await succeed(circuit, 20);
    assert.equal(circuit.state, 'closed');
    assert.deepEqual(circuit.snapshot(), {
      name: 'agents',
      state: 'closed',
      callsInWindow: 20,
      failuresInWindow: 0,
      retryAfterMs: 0,
    });
  });

  test('opens when the error rate reaches the threshold with enough calls', async () => {
    const { circuit } = breaker();
    await succeed(circuit, 2);
    await fail(circuit, 1);
    assert.equal(circuit.state, 'closed', '1 of 3: below minimumCalls');
    await fail(circuit, 1);
    assert.equal(circuit.state, 'open', '2 of 4 = 0.5 >= threshold');
  });

  test('a success never opens the circuit, even when it completes the minimum at the threshold rate', async () => {
    const { circuit } = breaker({ minimumCalls: 2, errorRateThreshold: 0.5 });
    await fail(circuit);
    await succeed(circuit);
    assert.equal(circuit.state, 'closed');
    await fail(circuit);
    assert.equal(circuit.state, 'open', 'the next failure, at 2 of 3, does open it');
  });

  test('does not open below minimumCalls, however many of them fail', async () => {
    const { circuit } = breaker({ minimumCalls: 5 });
    await fail(circuit, 4);
    assert.equal(circuit.state, 'closed');
    assert.equal(circuit.snapshot().failuresInWindow, 4);
    await fail(circuit, 1);
    assert.equal(circuit.state, 'open');
  });

  test('does not open below the error-rate threshold', async () => {
    const { circuit } = breaker();
    await succeed(circuit, 3);
    await fail(circuit, 1);
    await succeed(circuit, 3);
    await fail(circuit, 2);
    assert.equal(circuit.snapshot().callsInWindow, 9);
    assert.equal(circuit.state, 'closed', '3 of 9 < 0.5');
  });

  test('fast-fails while open, without calling, and says when to retry', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 4);
    let called = false;
    clock.advance(1_000);
    const error = await circuit
      .run(async () => {
        called = true;
        return 'ok';
      })
      .catch((caught: unknown) => caught);
    assert.equal(called, false);
    assert.ok(error instanceof CircuitOpenError);
    assert.equal(error.circuit, 'agents');
    assert.equal(error.retryAfterMs, 4_000);
    assert.match(error.message, /agents is unavailable \(circuit open\); retry in 4 s/);
    assert.deepEqual(circuit.snapshot(), {
      name: 'agents',
      state: 'open',
      callsInWindow: 0,
      failuresInWindow: 0,
      retryAfterMs: 4_000,
    });
  });

  test('after the open period it is half-open and lets exactly one probe through', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 4);
    clock.advance(4_999);
    assert.equal(circuit.state, 'open');
    clock.advance(1);
    assert.equal(circuit.state, 'half-open');
    assert.equal(circuit.snapshot().retryAfterMs, 0);

    const probe = deferred();
    const probing = circuit.run(() => probe.promise);
    let secondCalled = false;
    await assert.rejects(
      circuit.run(async () => {
        secondCalled = true;
        return 'second';
      }),
      CircuitOpenError,
    );
    assert.equal(secondCalled, false, 'no second call while the probe is in flight');
    probe.resolve('probe ok');
    assert.equal(await probing, 'probe ok');
  });

  test('a successful probe closes the circuit with a clean window', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 4);
    clock.advance(5_000);
    await succeed(circuit, 1);
    assert.equal(circuit.state, 'closed');
    assert.deepEqual(circuit.snapshot(), {
      name: 'agents',
      state: 'closed',
      callsInWindow: 0,
      failuresInWindow: 0,
      retryAfterMs: 0,
    });
    // the old failures are forgotten: it takes a full new run of failures to open again
    await fail(circuit, 3);
    assert.equal(circuit.state, 'closed');
    await fail(circuit, 1);
    assert.equal(circuit.state, 'open');
  });

  test('a failed probe opens the circuit again for a full open period', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 4);
    clock.advance(6_000);
    assert.equal(circuit.state, 'half-open');
    await fail(circuit, 1);
    assert.equal(circuit.state, 'open');
    assert.equal(circuit.snapshot().retryAfterMs, 5_000);
    clock.advance(5_000);
    assert.equal(circuit.state, 'half-open');
  });

  test('errors that isFailure rejects are rethrown but do not count', async () => {
    const { circuit } = breaker();
    const callerMistake = Object.assign(new Error('bad argument'), { code: 3 });
    const isFailure = (error: unknown): boolean => (error as { code?: number }).code !== 3;
    for (let index = 0; index < 10; index++) {
      await assert.rejects(
        circuit.run(async () => {
          throw callerMistake;
        }, isFailure),
        /bad argument/,
      );
    }
    assert.equal(circuit.state, 'closed');
    assert.deepEqual(circuit.snapshot().failuresInWindow, 0);
    assert.deepEqual(circuit.snapshot().callsInWindow, 10);
  });

  test('outcomes older than the window are pruned and no longer count', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 3);
    clock.advance(10_001);
    assert.equal(circuit.snapshot().callsInWindow, 0, 'the three failures left the window');
    await fail(circuit, 1);
    assert.equal(circuit.state, 'closed', 'only 1 call in the window: below minimumCalls');
    await succeed(circuit, 2);
    clock.advance(5_000);
    assert.equal(circuit.snapshot().callsInWindow, 3);
    await fail(circuit, 1);
    assert.equal(circuit.state, 'open', '2 of 4 in the window');
  });

  test('thousands of calls in the window keep exact counts as old ones expire', () => {
    const { circuit, clock } = breaker({ minimumCalls: 1_000_000 });
    for (let index = 0; index < 5_000; index++) {
      circuit.record(index % 10 === 0);
      clock.advance(1);
    }
    assert.deepEqual([circuit.snapshot().callsInWindow, circuit.snapshot().failuresInWindow], [5_000, 500]);
    clock.advance(OPTIONS.windowMs - 5_000 + 2_500);
    assert.deepEqual([circuit.snapshot().callsInWindow, circuit.snapshot().failuresInWindow], [2_500, 250]);
    clock.advance(10_000);
    assert.deepEqual([circuit.snapshot().callsInWindow, circuit.snapshot().failuresInWindow], [0, 0]);
  });

  test('a partly expired window counts only the recent calls', async () => {
    const { circuit, clock } = breaker();
    await fail(circuit, 2); // t=0: 2 calls, below minimumCalls
    clock.advance(10_001);
    await succeed(circuit, 2); // unpruned this would be 2 of 4 failed -> open
    assert.equal(circuit.state, 'closed');
    assert.deepEqual(
      { calls: circuit.snapshot().callsInWindow, failures: circuit.snapshot().failuresInWindow },
      { calls: 2, failures: 0 },
    );
    await fail(circuit, 1);
    assert.equal(circuit.state, 'closed', '1 of 3');
  });

  test('record() feeds the same state machine as run()', () => {
    const { circuit, clock } = breaker({ minimumCalls: 2 });
    circuit.record(true);
    circuit.record(true);
    assert.equal(circuit.state, 'open');
    clock.advance(5_000);
    circuit.record(false);
    assert.equal(circuit.state, 'closed');
  });
});

test('a breaker refuses unusable options, naming the field', () => {
  for (const [options, field] of [
    [{ windowMs: 0 }, 'windowMs'],
    [{ minimumCalls: 1.5 }, 'minimumCalls'],
    [{ openDurationMs: -1 }, 'openDurationMs'],
    [{ errorRateThreshold: 0 }, 'errorRateThreshold'],
    [{ errorRateThreshold: 1.2 }, 'errorRateThreshold'],
  ] as const) {
    assert.throws(() => new CircuitBreaker('weather', options), new RegExp(`circuit breaker "weather"\\.${field}`));
  }
  assert.doesNotThrow(() => new CircuitBreaker('weather', { errorRateThreshold: 1 }));
});

describe('CircuitBreaker: outcomes that say nothing about the downstream', () => {
  test('an error isFailure answers undefined for is left out of the window: neither a failure nor a success', async () => {
    const { circuit } = breaker();
    const unjudged = () => undefined;
    for (let index = 0; index < 10; index++) await assert.rejects(circuit.run(boom, unjudged), /downstream failed/);
    assert.deepEqual([circuit.snapshot().callsInWindow, circuit.snapshot().failuresInWindow], [0, 0]);
    // Not counted as successes either: two failures of four calls still reach the 0.5 rate.
    await succeed(circuit, 2);
    await fail(circuit, 2);
    assert.equal(circuit.state, 'open');
  });
});
