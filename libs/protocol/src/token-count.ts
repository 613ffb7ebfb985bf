import { loadOptionalPackage, OptionalPackageMissingError } from './optional-package';
import { BpeTokenCounter } from './bpe-token-counter';
import { readRankFile } from './rank-file';

/**
 * The encoding of current OpenAI models; its rank table ships inside js-tiktoken (no network).
 * @internal
 */
export const TOKEN_ENCODING = 'o200k_base';

let encoder: BpeTokenCounter | undefined;

/**
 * How many tokens a model reads for `text`. Special-token markers such as
 * "<|endoftext|>" in the data are counted as the plain text they are (tool data
 * is untrusted).
 *
 * The rank table is loaded on the first count (or by warmTokenCounter), and only
 * this encoding's: a process that never counts tokens (the gateway) does not
 * carry it.
 * @internal
 */
export function countTokens(text: string): number {
  encoder ??= loadEncoder();
  return encoder.count(text);
}

/**
 * Loads the rank table now (about 0.1 s, once per process) and counts a sample once, so that
 * the first call that counts pays neither: counted cold, a first 100 KB answer takes about three
 * times what later ones do, the counter's loops not yet compiled (bench/startup/token-counter-first-count.ts).
 * False, and nothing loaded, when js-tiktoken is not installed (the first count then fails naming it).
 * @internal
 */
export function warmTokenCounter(): boolean {
  if (encoder) return true;
  try {
    encoder = loadEncoder();
  } catch (error) {
    if (error instanceof OptionalPackageMissingError) return false;
    throw error;
  }
  encoder.count(warmUpSample());
  return true;
}

/** About 30 KB of JSON rows like the ones tools answer: words, numbers, dates and punctuation. */
function warmUpSample(): string {
  return JSON.stringify(
    Array.from({ length: 120 }, (_, index) => ({
      id: `row-${index}`,
      value: index * 37.25,
      at: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
      text: `Sample ${index}: northwest winds 15 to 25 kt, gusts to ${30 + index} kt; seas 8 to 11 ft (at 11 s).`,
    })),
  );
}

function loadEncoder(): BpeTokenCounter {
  // An optional dependency: only a process that counts tokens installs it.
  return new BpeTokenCounter(
    loadOptionalPackage('js-tiktoken', 'Counting tokens (countTokens, _meta["s2sp/body_tokens"])', () =>
      readRankFile(require.resolve(`js-tiktoken/ranks/${TOKEN_ENCODING}`)),
    ),
  );
}
