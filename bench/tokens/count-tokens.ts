/**
 * Token counting shared by the token benchmark (bench/tokens/token-bench.ts)
 * and its test (test/bench/token-savings.test.ts): what a model reads for a
 * plain MCP tool result versus the S2SP control-plane answer for the same rows.
 *
 * Tokens are counted with js-tiktoken's o200k_base encoding (GPT-4o family).
 * The rank table ships inside the js-tiktoken package, so this works offline.
 */
import { createHash } from 'node:crypto';
import { DEFAULT_LIMITS } from '../../libs/s2sp/src/config/s2sp-options';
import { parseAbstractDomains } from '../../libs/s2sp/src/protocol/abstract-domains';
import type { AbstractFormat } from '../../libs/s2sp/src/protocol/abstract-format';
import { resourcePayload } from '../../libs/s2sp/src/protocol/resource-payload';
import type { Row } from '../../libs/s2sp/src/protocol/row';
import { resourceUrlFor } from '../../libs/s2sp/src/protocol/resource-token';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { countTokens } from '@s2sp/protocol';

export { countTokens, TOKEN_ENCODING as ENCODING } from '@s2sp/protocol';

/**
 * A realistic resource_url: the weather server's default base URL plus a 256-bit,
 * 43-character base64url token. Fixed (a SHA-256 digest, not random) so that
 * token counts are reproducible run to run.
 */
export const BENCH_RESOURCE_URL = resourceUrlFor(
  'http://127.0.0.1:3101',
  createHash('sha256').update('s2sp token benchmark').digest('base64url'),
);

const BENCH_DOMAIN_LIMITS = {
  maxColumns: DEFAULT_LIMITS.maxColumnsPerRequest,
  maxColumnNameLength: DEFAULT_LIMITS.maxColumnNameLength,
};

/** What the model reads for a plain MCP call: the JSON text of every row (the text content of the result). */
export function plainResultText(rows: readonly Row[]): string {
  return JSON.stringify(rows);
}

/**
 * What the model reads for an async-mode S2SP call: the JSON text of the
 * control-plane answer, built with the library's own parser, splitRows and
 * payload builder, so in the layout and key order the resource tool sends.
 */
export function s2spControlPlaneText(
  rows: readonly Row[],
  abstractDomains: string,
  format: AbstractFormat = 'rows',
  resourceUrl: string = BENCH_RESOURCE_URL,
): string {
  const domains = parseAbstractDomains(abstractDomains, BENCH_DOMAIN_LIMITS);
  if (domains === null)
    throw new Error('s2spControlPlaneText: abstractDomains is blank, which would be a plain MCP call.');
  return JSON.stringify(resourcePayload(splitRows(rows, domains), format, resourceUrl));
}

export interface TokenComparison {
  rows: number;
  /** Number of abstract columns. */
  abstractColumns: number;
  /** The abstract_domains value used, e.g. "event,severity". */
  abstractDomains: string;
  /** The layout of the S2SP answer: the default (`rows`) or the compact one (`columns`). */
  format: AbstractFormat;
  /** Total distinct columns of the rows (excluding _row_id). */
  totalColumns: number;
  plainTokens: number;
  s2spTokens: number;
  /** Share of the plain tokens the model does not read, in percent (0–100). */
  savedPercent: number;
  /** plainTokens / s2spTokens. */
  ratio: number;
  plainTokensPerRow: number;
  s2spTokensPerRow: number;
}

/** Plain-result token counts by rows array: the plain text does not depend on abstract_domains. */
const plainTokenCache = new WeakMap<readonly Row[], number>();

/** Tokens of the plain MCP result for `rows`; counted once per rows array (do not mutate it afterwards). */
export function countPlainTokens(rows: readonly Row[]): number {
  let tokens = plainTokenCache.get(rows);
  if (tokens === undefined) {
    tokens = countTokens(plainResultText(rows));
    plainTokenCache.set(rows, tokens);
  }
  return tokens;
}

/**
 * Counts the plain answer and the S2SP answer in `format` for `rows` with the
 * given abstract_domains (comma-separated or JSON array).
 */
export function compareTokens(
  rows: readonly Row[],
  abstractDomains: string,
  format: AbstractFormat = 'rows',
): TokenComparison {
  const plainTokens = countPlainTokens(rows);
  const s2spTokens = countTokens(s2spControlPlaneText(rows, abstractDomains, format));
  const split = splitRows(rows, parseAbstractDomains(abstractDomains, BENCH_DOMAIN_LIMITS) ?? []);
  const perRow = (tokens: number): number => (rows.length === 0 ? 0 : tokens / rows.length);
  return {
    rows: rows.length,
    abstractColumns: split.abstractDomains.length,
    abstractDomains,
    format,
    totalColumns: split.columns.length,
    plainTokens,
    s2spTokens,
    savedPercent: plainTokens === 0 ? 0 : (100 * (plainTokens - s2spTokens)) / plainTokens,
    ratio: s2spTokens === 0 ? Number.POSITIVE_INFINITY : plainTokens / s2spTokens,
    plainTokensPerRow: perRow(plainTokens),
    s2spTokensPerRow: perRow(s2spTokens),
  };
}
