import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { Tiktoken, type TiktokenBPE } from 'js-tiktoken/lite';
import o200k from 'js-tiktoken/ranks/o200k_base';
import p50k from 'js-tiktoken/ranks/p50k_base';
import { BpeTokenCounter } from '@s2sp/protocol';
import { readRankFile } from '../../libs/protocol/src/rank-file';

/** Text of every kind a tool answer holds: words, numbers, JSON, code, whitespace runs, scripts, emoji. */
function corpus(): string[] {
  const fixed = [
    '',
    'hello world',
    'before <|endoftext|> after <|fim_prefix|>',
    JSON.stringify([{ _row_id: 0, event: 'Wind Advisory', severity: 'Moderate', description: 'Gusts to 50 mph.' }]),
    'The quick brown fox jumps over the lazy dog. 1234567890 3.14159 -42 1e-9',
    'function merge(a, b) {\n\treturn { ...a, ...b };\n}\n\n\n    indented   spaces\r\n',
    '東京都の天気は晴れ。Здравствуйте, мир! مرحبا بالعالم 🌪️🌧️ 👩‍👩‍👧 ünïcödé',
    'antidisestablishmentarianism supercalifragilisticexpialidocious pneumonoultramicroscopic',
    'SGVsbG8gV29ybGQhIFRoaXMgaXMgYmFzZTY0IGVuY29kZWQgZGF0YSB3aXRob3V0IGFueSBzcGFjZXM=',
    "it's they'll we'VE I'M don't",
  ];
  // Seeded pseudo-random strings over a mixed alphabet: long pieces that take many merges.
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789 .,;:!?-_/\\\'"()[]{}\n\téüñ東京🌪'];
  const random = Array.from({ length: 200 }, () =>
    Array.from({ length: 1 + (next() % 120) }, () => alphabet[next() % alphabet.length]).join(''),
  );
  return [...fixed, ...random];
}

test("counts what js-tiktoken's o200k_base encoder counts, on text of every kind", () => {
  const ranks = o200k as unknown as TiktokenBPE;
  const reference = new Tiktoken(ranks);
  const counter = new BpeTokenCounter(ranks);
  for (const text of corpus()) assert.equal(counter.count(text), reference.encode(text, [], []).length, text);
});

test('reads rank files of several lines, whose ranks jump from line to line (p50k_base)', () => {
  const ranks = p50k as unknown as TiktokenBPE;
  assert.ok(
    ranks.bpe_ranks.split('\n').filter((line) => line !== '').length > 1,
    'p50k_base is no longer a test of several lines',
  );
  const reference = new Tiktoken(ranks);
  const counter = new BpeTokenCounter(ranks);
  for (const text of corpus()) assert.equal(counter.count(text), reference.encode(text, [], []).length, text);
});

test('reads a rank file as data, the same table as its module; a file it cannot cut (escapes: p50k_base) is loaded as a module', () => {
  for (const [name, module] of [
    ['o200k_base', o200k],
    ['p50k_base', p50k],
  ] as const) {
    const read = readRankFile(require.resolve(`js-tiktoken/ranks/${name}`));
    const { pat_str: pattern, bpe_ranks: ranks } = module as unknown as TiktokenBPE;
    assert.equal(read.pat_str, pattern, name);
    assert.equal(read.bpe_ranks, ranks, name);
  }
  // Cut out of the text, not run: running this file throws.
  const directory = mkdtempSync(join(tmpdir(), 'rank-file-'));
  const file = join(directory, 'ranks.cjs');
  writeFileSync(file, 'module.exports = {"pat_str":"\\\\s+|\\\\S+","bpe_ranks":"! 0 IQ== Ig=="}; throw 0;');
  assert.deepEqual(readRankFile(file), { pat_str: '\\s+|\\S+', bpe_ranks: '! 0 IQ== Ig==' });
  rmSync(directory, { recursive: true });

  const counter = new BpeTokenCounter(readRankFile(require.resolve('js-tiktoken/ranks/o200k_base')));
  const reference = new Tiktoken(o200k as unknown as TiktokenBPE);
  for (const text of corpus()) assert.equal(counter.count(text), reference.encode(text, [], []).length, text);
});
