import { getEncoding, type Tiktoken } from 'js-tiktoken';

let encoder: Tiktoken | undefined;

/**
 * o200k_base tokens in `text`, counted with js-tiktoken directly: an oracle for
 * tests of the project's own counting, which must not share its code path.
 * Special-token markers are encoded as plain text, as untrusted tool data is.
 */
export function o200kTokens(text: string): number {
  encoder ??= getEncoding('o200k_base');
  return encoder.encode(text, [], []).length;
}
