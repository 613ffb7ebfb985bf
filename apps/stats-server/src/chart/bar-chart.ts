/**
 * Headless SVG bar charts: count the values of one column, draw the counts with
 * vega-lite → vega → SVG string. No canvas, no DOM, no network.
 *
 * Loading note: `vega` and `vega-lite` are ES modules whose graph contains a
 * top-level `await` (vega-canvas probes for the optional `canvas` package with
 * `await import('canvas')`), so Node's `require()` of them fails with
 * ERR_REQUIRE_ASYNC_MODULE even on Node 20.19+/22. They are therefore loaded
 * once, lazily, with a dynamic `import()`. This file compiles to CommonJS; with
 * `"module": "node20"` (or node16/nodenext) TypeScript keeps `import()` as a
 * real dynamic import. (With `"module": "commonjs"` it would rewrite it into
 * `require()` and loading would fail; the tests would catch that.) Only type
 * imports appear at the top level.
 */
import type * as Vega from 'vega';
import type { TopLevelSpec } from 'vega-lite';

/** One bar: a category and how many rows had it. */
export interface CategoryCount {
  value: string;
  count: number;
}

export interface BarChartOptions {
  /** Chart title (drawn above the chart). */
  title: string;
  /** Title of the category (x) axis, typically the column name. */
  xLabel: string;
  /** Title of the count (y) axis. Default "count". */
  yLabel?: string;
  /**
   * At most this many bars are drawn (default 40). If there are more
   * categories, the first `maxBars - 1` are drawn and the rest are summed
   * into one final bar labelled "(N other values)".
   */
  maxBars?: number;
}

/** Label used by {@link countBy} for missing, null and undefined values. */
export const NONE_LABEL = '(none)';
/** Label used by {@link countBy} for empty strings. */
export const EMPTY_LABEL = '(empty)';

/** Subtitle drawn when there is nothing to count. */
export const NO_DATA_SUBTITLE = 'No data: 0 rows';

const DEFAULT_MAX_BARS = 40;

// ---------------------------------------------------------------------------
// Counting
// ---------------------------------------------------------------------------

/**
 * Turns one cell into the category label it is counted under.
 * - missing / null / undefined / empty array → "(none)"
 * - "" → "(empty)"
 * - strings as they are; numbers, booleans, bigints via String()
 * - Date → ISO string
 * - arrays → their elements' labels joined with ", " (so ["EAS","NWEM"] → "EAS, NWEM")
 * - other objects → JSON (keys in their own order)
 */
export function categoryLabel(value: unknown): string {
  if (value === null || value === undefined) return NONE_LABEL;
  if (typeof value === 'string') return value === '' ? EMPTY_LABEL : value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
  if (Array.isArray(value)) {
    if (value.length === 0) return NONE_LABEL;
    return value
      .map((item) => (typeof item === 'object' && item !== null ? safeJson(item) : categoryLabel(item)))
      .join(', ');
  }
  if (typeof value === 'object') return safeJson(value);
  return String(value); // symbol, function
}

function safeJson(value: unknown): string {
  try {
    const json = JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return json ?? String(value);
  } catch {
    return String(value); // circular
  }
}

/**
 * Counts the rows per value of `column` (own properties only; a row that lacks
 * the column, or is not an object, counts as "(none)"). Sorted by count
 * (descending), then by value (ascending, plain code-unit order, locale
 * independent).
 */
export function countBy(rows: readonly Record<string, unknown>[], column: string): CategoryCount[] {
  const counts = new Map<string, number>();
  for (const row of rows) {
    const cell =
      typeof row === 'object' && row !== null && Object.prototype.hasOwnProperty.call(row, column)
        ? row[column]
        : undefined;
    const label = categoryLabel(cell);
    counts.set(label, (counts.get(label) ?? 0) + 1);
  }
  return sortCounts([...counts].map(([value, count]) => ({ value, count })));
}

function sortCounts(counts: CategoryCount[]): CategoryCount[] {
  return counts.sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
}

// ---------------------------------------------------------------------------
// Library loading
// ---------------------------------------------------------------------------

type VegaModule = typeof Vega;
interface VegaLiteModule {
  compile(spec: TopLevelSpec): { spec: Vega.Spec };
}
interface ChartLibraries {
  vega: VegaModule;
  vegaLite: VegaLiteModule;
}

let libraries: Promise<ChartLibraries> | undefined;

/** Loads vega and vega-lite once. A failed load is retried on the next call. */
export function loadChartLibraries(): Promise<ChartLibraries> {
  if (!libraries) {
    libraries = Promise.all([import('vega'), import('vega-lite')]).then(([vega, vegaLite]) => ({
      vega,
      vegaLite: vegaLite,
    }));
    libraries.catch(() => {
      libraries = undefined;
    });
  }
  return libraries;
}

// ---------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------

/**
 * Keeps at most `maxBars` bars; the tail is summed into "(N other values)".
 * Also merges duplicate values (their counts are added) and validates counts.
 */
function prepareBars(counts: readonly CategoryCount[], maxBars: number): CategoryCount[] {
  const merged = new Map<string, number>();
  for (const { value, count } of counts) {
    if (typeof value !== 'string') throw new TypeError('renderBarChartSvg: every value must be a string');
    if (!Number.isFinite(count) || count < 0) {
      throw new RangeError(
        `renderBarChartSvg: count for ${JSON.stringify(value.slice(0, 40))} must be a finite number >= 0`,
      );
    }
    merged.set(value, (merged.get(value) ?? 0) + count);
  }
  const bars = [...merged].map(([value, count]) => ({ value, count }));
  if (bars.length <= maxBars) return bars;
  const kept = bars.slice(0, maxBars - 1);
  const rest = bars.slice(maxBars - 1);
  const restTotal = rest.reduce((sum, bar) => sum + bar.count, 0);
  let label = `(${rest.length} other values)`;
  while (merged.has(label)) label = `(${label})`; // never collide with a real category
  kept.push({ value: label, count: restTotal });
  return kept;
}

/**
 * Vega's runtime resolves some spec strings through plain-object lookups, so a
 * title that is exactly the name of an Object.prototype member ("constructor",
 * "toString", …) breaks rendering ("Operator not defined"). Such a text gets a
 * zero-width space appended: it reads the same, and is no longer that name.
 */
function specText(text: string): string {
  return Object.prototype.hasOwnProperty.call(Object.prototype, text) ? `${text}\u200b` : text;
}

/** The vega-lite spec for the chart. The data are inline; bars keep the given order. */
export function barChartSpec(bars: readonly CategoryCount[], options: BarChartOptions): TopLevelSpec {
  const yLabel = options.yLabel ?? 'count';
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title:
      bars.length === 0
        ? { text: specText(options.title), subtitle: NO_DATA_SUBTITLE }
        : { text: specText(options.title) },
    // Plain field names only ("value", "count"): the untrusted data never
    // becomes a field name, an expression or a format string.
    data: { values: bars.map((bar) => ({ value: bar.value, count: bar.count })) },
    mark: { type: 'bar', tooltip: false },
    encoding: {
      x: {
        field: 'value',
        type: 'nominal',
        sort: null, // keep the given (count-desc) order
        title: specText(options.xLabel),
        axis: { labelAngle: -45, labelLimit: 240 },
      },
      y: {
        field: 'count',
        type: 'quantitative',
        title: specText(yLabel),
        axis: { tickMinStep: 1, format: 'd' },
      },
    },
    config: { background: 'white' },
  };
}

/** A loader that refuses every request: the chart never fetches anything. */
function offlineLoader(vega: VegaModule): Vega.Loader {
  const refuse = (what: string): Promise<never> =>
    Promise.reject(new Error(`bar chart: external resource refused (${what})`));
  const loader = vega.loader();
  loader.load = (uri) => refuse(uri);
  loader.sanitize = (uri) => refuse(uri);
  loader.http = (uri) => refuse(uri);
  loader.file = (filename) => refuse(filename);
  return loader;
}

/**
 * Renders the counts as a standalone SVG document (a string starting with
 * `<svg` and declaring the SVG namespace). One bar per entry, in the given
 * order (pass the output of {@link countBy}).
 *
 * Empty input is not an error: it renders a valid chart with no bars and the
 * subtitle {@link NO_DATA_SUBTITLE}.
 *
 * All text (title, axis labels, aria labels) is escaped by vega's SVG
 * renderer, so category values taken from untrusted rows cannot inject markup.
 */
export async function renderBarChartSvg(counts: readonly CategoryCount[], options: BarChartOptions): Promise<string> {
  const maxBars = options.maxBars ?? DEFAULT_MAX_BARS;
  if (!Number.isInteger(maxBars) || maxBars < 1)
    throw new RangeError('renderBarChartSvg: maxBars must be an integer >= 1');
  const bars = prepareBars(counts, maxBars);
  const { vega, vegaLite } = await loadChartLibraries();
  const vegaSpec = vegaLite.compile(barChartSpec(bars, options)).spec;
  const view = new vega.View(vega.parse(vegaSpec), { renderer: 'none', loader: offlineLoader(vega) });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
