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
import type { Row } from '../../libs/s2sp/src/protocol/row';
import { resourceUrlFor } from '../../libs/s2sp/src/protocol/resource-token';
import { splitRows } from '../../libs/s2sp/src/protocol/split-rows';
import { countTokens } from '../../libs/s2sp/src/protocol/token-count';

export { countTokens, TOKEN_ENCODING as ENCODING } from '../../libs/s2sp/src/protocol/token-count';

/**
 * A realistic resource_url: the weather server's default base URL plus a 256-bit,
 * 43-character base64url token. Fixed (a SHA-256 digest, not random) so that
 * token counts are reproducible run to run.
 */
export const BENCH_RESOURCE_URL = resourceUrlFor(
  'http://127.0.0.1:3101',
  createHash('sha256').update('s2sp token benchmark').digest('base64url'),
);

/** What the model reads for a plain MCP call: the JSON text of every row (the text content of the result). */
export function plainResultText(rows: readonly Row[]): string {
  return JSON.stringify(rows);
}

/**
 * What the model reads for an async-mode S2SP call: the JSON text of the
 * control-plane answer, built with the library's own parser and splitRows, in
 * the key order the resource tool interceptor sends.
 */
export function s2spControlPlaneText(rows: readonly Row[], abstractDomains: string, resourceUrl: string = BENCH_RESOURCE_URL): string {
  const domains = parseAbstractDomains(abstractDomains, {
    maxColumns: DEFAULT_LIMITS.maxColumnsPerRequest,
    maxColumnNameLength: DEFAULT_LIMITS.maxColumnNameLength,
  });
  if (domains === null) throw new Error('s2spControlPlaneText: abstractDomains is blank, which would be a plain MCP call.');
  const split = splitRows(rows, domains);
  return JSON.stringify({
    total_rows: rows.length,
    columns: split.columns,
    abstract_domains: split.abstractDomains,
    body_domains: split.bodyDomains,
    resource_url: resourceUrl,
    abstract: split.abstract,
  });
}

export interface TokenComparison {
  rows: number;
  /** Number of abstract columns. */
  abstractColumns: number;
  /** The abstract_domains value used, e.g. "event,severity". */
  abstractDomains: string;
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

/** Counts both answers for `rows` with the given abstract_domains (comma-separated or JSON array). */
export function compareTokens(rows: readonly Row[], abstractDomains: string): TokenComparison {
  const plainTokens = countPlainTokens(rows);
  const controlPlane = s2spControlPlaneText(rows, abstractDomains);
  const s2spTokens = countTokens(controlPlane);
  const parsed = JSON.parse(controlPlane) as { columns: string[]; abstract_domains: string[] };
  const perRow = (tokens: number): number => (rows.length === 0 ? 0 : tokens / rows.length);
  return {
    rows: rows.length,
    abstractColumns: parsed.abstract_domains.length,
    abstractDomains,
    totalColumns: parsed.columns.length,
    plainTokens,
    s2spTokens,
    savedPercent: plainTokens === 0 ? 0 : (100 * (plainTokens - s2spTokens)) / plainTokens,
    ratio: s2spTokens === 0 ? Number.POSITIVE_INFINITY : plainTokens / s2spTokens,
    plainTokensPerRow: perRow(plainTokens),
    s2spTokensPerRow: perRow(s2spTokens),
  };
}
