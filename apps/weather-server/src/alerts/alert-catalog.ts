/**
 * The weather server's alert data: synthetic NWS alerts for every state (plus
 * the two real Alaska alerts), built once on first use. Plain class so that it
 * can be registered as a Nest provider (`{ provide: AlertCatalog, useValue:
 * new AlertCatalog() }` or `useClass`).
 */
import {
  generateAlerts,
  generateLargeAlertSet,
  type AlertRecord,
  type AlertsByArea,
  type GenerateAlertsOptions,
} from './alert-generator';

/** Thrown by {@link AlertCatalog.forArea} for an area code the catalog does not have. */
export class UnknownAreaError extends Error {
  override readonly name = 'UnknownAreaError';
  constructor(
    /** The area as given (possibly untrusted input). */
    readonly area: string,
    readonly validAreas: readonly string[],
  ) {
    // Quote and truncate the input: it may come from a client.
    super(`Unknown area ${JSON.stringify(String(area).slice(0, 40))}: expected a two-letter code, one of ${validAreas.join(', ')}`);
  }
}

export class AlertCatalog {
  private byArea: AlertsByArea | undefined;
  private codes: string[] | undefined;

  /** Options for the generator (seed etc.); the defaults give the standard data set. */
  constructor(private readonly options: GenerateAlertsOptions = {}) {}

  private data(): AlertsByArea {
    if (!this.byArea) {
      this.byArea = generateAlerts(this.options);
      this.codes = Object.keys(this.byArea).sort();
    }
    return this.byArea;
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

  /** `rows` synthetic alerts of the same shape, for benchmarks (generated on each call, deterministic). */
  large(rows: number): AlertRecord[] {
    return generateLargeAlertSet(rows, this.options.seed, this.options.baseTime);
  }
}
