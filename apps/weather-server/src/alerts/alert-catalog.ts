/**
 * The weather server's alert data: synthetic NWS alerts for every state (plus
 * the two real Alaska alerts), built once on first use. Plain class so that it
 * can be registered as a Nest provider (`{ provide: AlertCatalog, useValue:
 * new AlertCatalog() }` or `useClass`).
 */
import {
  DEFAULT_BASE_TIME,
  DEFAULT_SEED,
  generateAlerts,
  generateLargeAlertSet,
  type AlertRecord,
  type AlertsByArea,
  type GenerateAlertsOptions,
} from './alert-generator';

const HOUR_MS = 3_600_000;

/** Thrown by {@link AlertCatalog.forArea} for an area code the catalog does not have. */
export class UnknownAreaError extends Error {
  override readonly name = 'UnknownAreaError';
  constructor(
    /** The area as given (possibly untrusted input). */
    readonly area: string,
    readonly validAreas: readonly string[],
  ) {
    // Quote and truncate the input: it may come from a client.
    super(
      `Unknown area ${JSON.stringify(String(area).slice(0, 40))}: expected a two-letter code, one of ${validAreas.join(', ')}`,
    );
  }
}

/** Told which areas' alerts changed when the catalog advances. */
export type AlertChangeListener = (changedAreas: readonly string[]) => void;

export class AlertCatalog {
  private byArea: AlertsByArea | undefined;
  private codes: string[] | undefined;
  /** How many times the data set has advanced: the generator's seed and "now" move with it. */
  private tick = 0;
  private readonly listeners = new Set<AlertChangeListener>();

  /** Options for the generator (seed etc.); the defaults give the standard data set. */
  constructor(private readonly options: GenerateAlertsOptions = {}) {}

  private data(): AlertsByArea {
    if (!this.byArea) {
      this.byArea = generateAlerts(this.optionsAt(this.tick));
      this.codes = Object.keys(this.byArea).sort();
    }
    return this.byArea;
  }

  /**
   * Moves the data set on by one hour (new seed, "now" one hour later), as a
   * live feed would, and tells the listeners which areas changed.
   * @returns the areas whose alerts changed, sorted.
   */
  advance(): string[] {
    const before = this.data();
    this.tick += 1;
    this.byArea = generateAlerts(this.optionsAt(this.tick));
    const changed = this.codes!.filter((code) => JSON.stringify(before[code]) !== JSON.stringify(this.byArea![code]));
    for (const listener of this.listeners) listener(changed);
    return changed;
  }

  /** Calls `listener` after each {@link advance}; returns the function that stops it. */
  onChange(listener: AlertChangeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The valid area codes, sorted (50 states, DC, PR). */
  areas(): string[] {
    this.data();
    return [...this.codes!];
  }

  /**
   * The alerts for one area: a two-letter code, case-insensitive, surrounding
   * whitespace ignored. Returns fresh copies (callers may mutate them).
   * @throws UnknownAreaError for anything else.
   */
  forArea(area: string): AlertRecord[] {
    const data = this.data();
    const code = typeof area === 'string' ? area.trim().toUpperCase() : '';
    const alerts = /^[A-Z]{2}$/.test(code) && Object.prototype.hasOwnProperty.call(data, code) ? data[code] : undefined;
    if (!alerts) throw new UnknownAreaError(area, this.codes!);
    return structuredClone(alerts);
  }

  private optionsAt(tick: number): GenerateAlertsOptions {
    if (tick === 0) return this.options;
    const base = Date.parse(this.options.baseTime ?? DEFAULT_BASE_TIME);
    return {
      ...this.options,
      seed: (this.options.seed ?? DEFAULT_SEED) + tick,
      baseTime: new Date(base + tick * HOUR_MS).toISOString(),
    };
  }

  /** `rows` synthetic alerts of the same shape, for benchmarks (generated on each call, deterministic). */
  large(rows: number): AlertRecord[] {
    return generateLargeAlertSet(rows, this.options.seed, this.options.baseTime);
  }
}
