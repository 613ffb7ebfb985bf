import { S2spToolError } from './s2sp-error';

/**
 * How a resource tool's S2SP answer lays out its rows:
 * - `rows` (default): the answer the reference SDK and its consumers read,
 *   rows as objects, with `columns`, `abstract_domains` and `body_domains`;
 * - `columns`: the compact answer (docs/compact-abstract.md), rows as arrays
 *   under one list of column names, without the lists the model can derive.
 */
export const ABSTRACT_FORMATS = ['rows', 'columns'] as const;

export type AbstractFormat = (typeof ABSTRACT_FORMATS)[number];

export const DEFAULT_ABSTRACT_FORMAT: AbstractFormat = 'rows';

/**
 * The `abstract_format` of a call; absent means the default. The compact
 * layout only exists for S2SP answers, so asking for it without
 * abstract_domains is an error rather than silently ignored.
 */
export function parseAbstractFormat(raw: unknown, hasAbstractDomains: boolean): AbstractFormat {
  if (raw === undefined || raw === null) return DEFAULT_ABSTRACT_FORMAT;
  if (!ABSTRACT_FORMATS.includes(raw as AbstractFormat)) {
    throw new S2spToolError(
      `abstract_format must be one of ${ABSTRACT_FORMATS.map((name) => `"${name}"`).join(', ')}.`,
    );
  }
  if (raw === 'columns' && !hasAbstractDomains) {
    throw new S2spToolError('abstract_format "columns" lays out an S2SP answer: give abstract_domains too.');
  }
  return raw as AbstractFormat;
}
