import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { releaseStartupMemory } from '@s2sp/platform';

function youngGenerationMiB(): number {
  const space = getHeapSpaceStatistics().find(({ space_name }) => space_name === 'new_space');
  assert.ok(space, 'V8 reports no new_space');
  return space.space_size / 1024 / 1024;
}

/** Allocates like a process loading its modules: a lot, nearly all of it surviving a while. */
function growYoungGeneration(): number {
  const survivors: Array<{ index: number; text: string }> = [];
  for (let index = 0; index < 2_000_000 && youngGenerationMiB() < 16; index++)
    survivors.push({ index, text: `row ${index}` });
  return survivors.length;
}

test('gives back the young generation that start-up grew, without exposing gc to the process', () => {
  growYoungGeneration();
  const grown = youngGenerationMiB();
  assert.ok(grown >= 16, `the young generation did not grow (${grown} MiB): the test proves nothing`);
  releaseStartupMemory();
  assert.ok(youngGenerationMiB() <= 2, `young generation still ${youngGenerationMiB()} MiB`);
  assert.equal(typeof (globalThis as { gc?: unknown }).gc, 'undefined');
  assert.equal(runInNewContext('typeof gc'), 'undefined', 'contexts made afterwards gained a gc global');
});
