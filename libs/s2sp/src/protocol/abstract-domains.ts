import { S2spToolError } from './s2sp-error';

export interface DomainLimits {
  maxColumns: number;
  maxColumnNameLength: number;
}

/**
 * Parses `abstract_domains` as the Python reference SDK accepts it: a
 * comma-separated list (`"event,severity"`) or a JSON array string
 * (`'["event","severity"]'`). Returns null when the parameter is absent or
 * blank, which means "behave as a plain MCP tool".
 */
export function parseAbstractDomains(raw: string | undefined | null, limits: DomainLimits): string[] | null {
  if (raw === undefined || raw === null) return null;
  const text = raw.trim();
  if (text === '') return null;

  const names = text.startsWith('[') ? parseJsonArray(text) : text.split(',').map((part) => part.trim());
  const columns = [...new Set(names.filter((name) => name !== ''))];
  if (columns.length === 0) {
    throw new S2spToolError('abstract_domains names no column: give a comma-separated list such as "event,severity".');
  }
  if (columns.length > limits.maxColumns) {
    throw new S2spToolError(
      `abstract_domains names ${columns.length} columns; at most ${limits.maxColumns} are allowed.`,
    );
  }
  const tooLong = columns.find((name) => name.length > limits.maxColumnNameLength);
  if (tooLong !== undefined) {
    throw new S2spToolError(`abstract_domains has a column name longer than ${limits.maxColumnNameLength} characters.`);
  }
  if (columns.includes('_row_id')) {
    throw new S2spToolError('abstract_domains must not name _row_id: every S2SP row carries it already.');
  }
  return columns;
}

function parseJsonArray(text: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new S2spToolError('abstract_domains starts with "[" but is not a valid JSON array of column names.');
  }
  if (!Array.isArray(parsed) || parsed.some((item) => typeof item !== 'string')) {
    throw new S2spToolError('abstract_domains as JSON must be an array of strings, e.g. ["event","severity"].');
  }
  return parsed.map((name: string) => name.trim());
}
