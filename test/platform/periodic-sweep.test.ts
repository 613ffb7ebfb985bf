import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PeriodicSweep } from '../../libs/platform/src/internal';

const quietLogger = () => {
  const warnings: string[] = [];
  return {
    warnings,
    logger: { warn: (message: unknown) => void warnings.push(String(message)), debug: () => undefined },
  };
};

test('overlapping sweeps share the one in progress; stop() waits for it', async () => {
  let runs = 0;
  let finish!: (count: number) => void;
  const { logger } = quietLogger();
  const sweep = new PeriodicSweep(
    'things',
    () => {
      runs += 1;
      return new Promise<number>((resolve) => (finish = resolve));
    },
    logger,
  );
  const first = sweep.sweep();
  const second = sweep.sweep();
  assert.equal(runs, 1);
  let stopped = false;
  const stopping = sweep.stop().then(() => (stopped = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(stopped, false, 'stop waits for the sweep in progress');
  finish(3);
  assert.deepEqual(await Promise.all([first, second, stopping]), [3, 3, true]);
});

test('a failing sweep is logged and counts as 0; the next one runs again', async () => {
  let calls = 0;
  const { logger, warnings } = quietLogger();
  const sweep = new PeriodicSweep(
    'records',
    async () => {
      calls += 1;
      if (calls === 1) throw new Error('database gone');
      return 2;
    },
    logger,
  );
  assert.equal(await sweep.sweep(), 0);
  assert.match(warnings[0] ?? '', /records failed: database gone/);
  assert.equal(await sweep.sweep(), 2);
});

test('an interval sweeps repeatedly, immediately when asked; 0 never starts', async () => {
  let calls = 0;
  const { logger } = quietLogger();
  const never = new PeriodicSweep('nothing', async () => ++calls, logger);
  never.start(0, { immediately: true });
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.equal(calls, 0);

  const often = new PeriodicSweep('things', async () => ++calls, logger);
  often.start(10, { immediately: true });
  assert.equal(calls, 1, 'the immediate sweep started synchronously');
  const deadline = Date.now() + 5_000;
  while (calls < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  await often.stop();
  assert.ok(calls >= 3, `swept ${calls} times`);
  const afterStop = calls;
  await new Promise((resolve) => setTimeout(resolve, 40));
  assert.equal(calls, afterStop, 'no sweep after stop()');
});
