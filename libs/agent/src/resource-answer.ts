import { ColumnarRowsError, ROW_ID, type Row, rowsFromColumnar, S2SP_META } from '@s2sp/protocol';
import { contentBlocksOf, isObject, type McpToolResult } from './mcp-tool-result';

/**
 * The control-plane answer of an S2SP resource tool called with abstract_domains, validated.
 * @public
 */
export interface S2spResourceAnswer {
  totalRows: number;
  columns: string[];
  abstractDomains: string[];
  bodyDomains: string[];
  /** Async mode: the single-use capability URL of the cached body. */
  resourceUrl?: string;
  abstract: Row[];
  /** Sync mode: the body rows, inline, for the agent's own buffer (never for the model). */
  body?: Row[];
  /** `_meta['s2sp/body_tokens']` when the server counted them. */
  bodyTokens?: number;
  /** `_meta['s2sp/body_bytes']` when the server reported them. */
  bodyBytes?: number;
  /** The answer as JSON without `body`: exactly the control plane (the `resource_url` included). */
  controlPlane: Record<string, unknown>;
}

/**
 * Reads an S2SP resource answer from structuredContent (or, for servers that
 * only send text, the JSON of the first text block), in the default layout or
 * the compact one of `abstract_format: "columns"`. Undefined when the result is
 * an error or not an S2SP answer (e.g. a plain call).
 * @public
 */
export function readS2spResourceAnswer(result: McpToolResult): S2spResourceAnswer | undefined {
  if (result.isError === true) return undefined;
  const source = result.structuredContent ?? parseFirstText(result);
  if (!isObject(source)) return undefined;
  const { total_rows, columns, resource_url } = source;
  const abstract = rowsOf(source.abstract);
  const body = source.body === undefined ? undefined : rowsOf(source.body);
  if (abstract === undefined || (source.body !== undefined && body === undefined)) return undefined;
  const abstract_domains = source.abstract_domains ?? domainsOf(source.abstract);
  const body_domains = source.body_domains ?? domainsOf(source.body);
  if (!isStringArray(abstract_domains) || !isStringArray(body_domains)) return undefined;
  if (typeof total_rows !== 'number' || !Number.isSafeInteger(total_rows) || total_rows < 0) return undefined;
  if (resource_url !== undefined && !isHttpUrl(resource_url)) return undefined;
  if (resource_url === undefined && body === undefined) return undefined;
  const controlPlane: Record<string, unknown> = { ...source };
  delete controlPlane.body;
  return {
    totalRows: total_rows,
    columns: isStringArray(columns) ? columns : [...abstract_domains, ...body_domains],
    abstractDomains: abstract_domains,
    bodyDomains: body_domains,
    resourceUrl: resource_url as string | undefined,
    abstract,
    body,
    bodyTokens: metaCount(result, S2SP_META.BODY_TOKENS),
    bodyBytes: metaCount(result, S2SP_META.BODY_BYTES),
    controlPlane,
  };
}

/** Rows with a valid `_row_id` each, from an array of row objects or the compact layout; else undefined. */
function rowsOf(value: unknown): Row[] | undefined {
  let rows: unknown = value;
  if (isObject(value)) {
    try {
      rows = rowsFromColumnar('rows', value, { maxRows: Number.MAX_SAFE_INTEGER });
    } catch (error) {
      if (error instanceof ColumnarRowsError) return undefined;
      throw error;
    }
  }
  return Array.isArray(rows) && rows.every(isRowWithId) ? (rows as Row[]) : undefined;
}

/** The domains a compact answer leaves out: its rows' columns but `_row_id`. */
function domainsOf(value: unknown): unknown {
  return isObject(value) && isStringArray(value.columns)
    ? value.columns.filter((column) => column !== ROW_ID)
    : undefined;
}

const JSON_OBJECT_START = /^[ \t\n\r]*\{/;

function parseFirstText(result: McpToolResult): unknown {
  const block = contentBlocksOf(result).find((item) => item.type === 'text' && typeof item.text === 'string');
  // Only a JSON object can be an answer: skip the (throwing, so slow) parse of plain text.
  if (!block || !JSON_OBJECT_START.test(block.text as string)) return undefined;
  try {
    return JSON.parse(block.text as string);
  } catch {
    return undefined;
  }
}

function metaCount(result: McpToolResult, key: string): number | undefined {
  const value = isObject(result._meta) ? result._meta[key] : undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

function isRowWithId(value: unknown): boolean {
  if (!isObject(value)) return false;
  const id = value[ROW_ID];
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0;
}

function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

function isHttpUrl(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
