import { readFileSync } from 'node:fs';
import type { BytePairRanks } from './bpe-token-counter';

const BPE_RANKS_KEY = '"bpe_ranks":"';

/**
 * A js-tiktoken rank file, read as data: its CommonJS module is one object literal whose
 * `bpe_ranks` string (2.3 MB for o200k) holds no escape, so the table is cut out of the file's
 * text instead of compiling the module as JavaScript. Compiling it kept memory the process never
 * got back (the source, the string literal, the parser's zones): about 3 MiB of an idle server.
 * A file of another layout is loaded as the module it is.
 * @internal
 */
export function readRankFile(filename: string): BytePairRanks {
  const text = readFileSync(filename, 'latin1');
  const ranksStart = text.indexOf(BPE_RANKS_KEY);
  const objectStart = text.indexOf('{');
  const ranksEnd = text.lastIndexOf('"');
  if (ranksStart === -1 || objectStart === -1 || objectStart > ranksStart || ranksEnd <= ranksStart) {
    return asModule(filename);
  }
  const ranks = text.slice(ranksStart + BPE_RANKS_KEY.length, ranksEnd);
  // Only ASCII without escapes is the string's value as it stands.
  if (/[^\x20-\x7e]|["\\]/.test(ranks)) return asModule(filename);
  let head: unknown;
  try {
    head = JSON.parse(`${text.slice(objectStart, ranksStart).replace(/,\s*$/, '')}}`);
  } catch {
    return asModule(filename);
  }
  const { pat_str: pattern } = head as { pat_str?: unknown };
  if (typeof pattern !== 'string') return asModule(filename);
  return { pat_str: pattern, bpe_ranks: ranks };
}

/** The rank file as a CommonJS module (its typings say `default`), forgotten once read so that its table can be collected. */
function asModule(filename: string): BytePairRanks {
  const ranks = require(filename) as BytePairRanks;
  delete require.cache[filename];
  const index = module.children.findIndex((child) => child.id === filename);
  if (index !== -1) module.children.splice(index, 1);
  return ranks;
}
