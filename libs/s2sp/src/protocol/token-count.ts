import type { Tiktoken, TiktokenBPE } from 'js-tiktoken/lite';
import { loadOptionalPackage, OptionalPackageMissingError } from '@s2sp/platform/internal';

/** The encoding of current OpenAI models; its rank table ships inside js-tiktoken (no network). */
export const TOKEN_ENCODING = 'o200k_base';

let encoder: Tiktoken | undefined;

/**
 * How many tokens a model reads for `text`. Special-token markers such as
 * "<|endoftext|>" in the data are counted as the plain text they are: the
 * default would throw on them (tool data is untrusted) and rebuild a regex of
 * every special token on each call.
 *
 * The rank table is loaded on the first count, and only this encoding's: a
 * process that never counts tokens (a resource server, the gateway) does not
 * carry js-tiktoken's tables of every encoding (about 24 MB of RSS).
 * @internal
 */
export function countTokens(text: string): number {
  encoder ??= loadEncoder();
  return encoder.encode(text, [], []).length;
}

/**
 * Loads the rank table now (about a second, once per process) so that the first call that counts
 * does not pay it; false, and nothing loaded, when js-tiktoken is not installed (the first count
 * then fails naming it).
 * @internal
 */
export function warmTokenCounter(): boolean {
  if (encoder) return true;
  try {
    encoder = loadEncoder();
    return true;
  } catch (error) {
    if (error instanceof OptionalPackageMissingError) return false;
    throw error;
  }
}

function loadEncoder(): Tiktoken {
  // An optional dependency: only a process that counts tokens installs it.
  const { Tiktoken: Encoder } = loadOptionalPackage(
    'js-tiktoken',
    'Counting tokens (countTokens, _meta["s2sp/body_tokens"])',
    () => {
      return require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
    },
  );
  // The CommonJS build of the rank file is the table itself (its typings say `default`).

  const ranks = require(`js-tiktoken/ranks/${TOKEN_ENCODING}`) as TiktokenBPE;
  return new Encoder(ranks);
}
