/**
 * What the first token count costs in a fresh process after `warmTokenCounter()` (what every app
 * with resource tools, and the agents, run while they start), against the same count once warm, in
 * the same process: each of --processes fresh processes loads the counter, waits 0.1 s (the rest of
 * an app's start), then counts the same 100 KB of JSON rows five times; printed are the medians over processes of the warm-up, of the
 * first count and of the last, and first / last.
 *
 *   npm run build && node dist/bench/startup/token-counter-first-count.js [--processes 7]
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { median } from '../gateway/percentiles';

const COUNTS = 5;
const PAUSE_MS = 100;

/** Runs in the child: prints `warmUpMs firstMs … lastMs`. */
async function measureInThisProcess(): Promise<void> {
  const { countTokens, warmTokenCounter } = require('@s2sp/protocol') as typeof import('@s2sp/protocol');
  const rows = Array.from({ length: 200 }, (_, index) => ({
    id: `urn:oid:2.49.0.1.840.0.${index}`,
    areaDesc: 'Coastal waters from Point Arena to Point Reyes CA out 10 nm',
    headline: `Small Craft Advisory issued December ${index % 30} at 3:04AM PST by NWS San Francisco CA`,
    description: '* WHAT...Northwest winds 15 to 25 kt with gusts up to 30 kt and seas 8 to 11 ft at 11 seconds.',
    instruction: 'Inexperienced mariners should avoid navigating in hazardous conditions.',
  }));
  const text = JSON.stringify(rows);
  let started = performance.now();
  if (!warmTokenCounter()) throw new Error('js-tiktoken is not installed');
  const times = [performance.now() - started];
  // An app goes on starting after its warm-ups (and V8 compiles hot code in the background meanwhile).
  await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
  for (let count = 0; count < COUNTS; count++) {
    started = performance.now();
    countTokens(text);
    times.push(performance.now() - started);
  }
  console.log(times.map((ms) => ms.toFixed(2)).join(' '));
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { processes: { type: 'string', default: '7' }, child: { type: 'boolean' } },
  });
  if (values.child) {
    await measureInThisProcess();
    return;
  }
  const runs: number[][] = [];
  for (let run = 0; run < Number(values.processes); run++) {
    const child = spawnSync(process.execPath, [__filename, '--child'], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`measuring process failed: ${child.stderr}`);
    runs.push(child.stdout.trim().split(' ').map(Number));
  }
  const warmUp = median(runs.map((times) => times[0]));
  const first = median(runs.map((times) => times[1]));
  const last = median(runs.map((times) => times[COUNTS]));
  console.log(`token counter, ${runs.length} fresh processes, Node ${process.version}, 100 KB of JSON rows`);
  console.log(
    `warmTokenCounter ${warmUp.toFixed(1)} ms; first count ${first.toFixed(1)} ms, count ${COUNTS} ${last.toFixed(1)} ms: first / warm ${(first / last).toFixed(2)}×`,
  );
}

void main();
