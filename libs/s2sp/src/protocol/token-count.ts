import { getEncoding, type Tiktoken } from 'js-tiktoken';

/** The encoding of current OpenAI models; its rank table ships inside js-tiktoken (no network). */
export const TOKEN_ENCODING = 'o200k_base';

let encoder: Tiktoken | undefined;

/** How many tokens a model reads for `text`. */
export function countTokens(text: string): number {
  encoder ??= getEncoding(TOKEN_ENCODING);
  return encoder.encode(text).length;
}
