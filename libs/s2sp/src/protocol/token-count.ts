import { getEncoding, type Tiktoken } from 'js-tiktoken';

/** The encoding of current OpenAI models; its rank table ships inside js-tiktoken (no network). */
export const TOKEN_ENCODING = 'o200k_base';

let encoder: Tiktoken | undefined;

/**
 * How many tokens a model reads for `text`. Special-token markers such as
 * "<|endoftext|>" in the data are counted as the plain text they are: the
 * default would throw on them (tool data is untrusted) and rebuild a regex of
 * every special token on each call.
 */
export function countTokens(text: string): number {
  encoder ??= getEncoding(TOKEN_ENCODING);
  return encoder.encode(text, [], []).length;
}
