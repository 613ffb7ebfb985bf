/**
 * Deterministic synthetic National Weather Service alerts.
 *
 * The records have exactly the shape of the `properties` of a feature from
 * https://api.weather.gov/alerts (31 keys, same nesting, nulls where the API
 * has them): see the seed, data/nws-alerts-AK-2025-10-14.json, whose two real
 * Alaska alerts are included verbatim in Alaska's list.
 *
 * Determinism: every random choice comes from a seeded mulberry32 generator and
 * every timestamp from a fixed base time; nothing reads the clock, so the same
 * options always give deep-equal output.
 */
import seedCollection from './data/nws-alerts-AK-2025-10-14.json';
import { NWS_EVENT_TYPES, type NwsEventType } from './event-types';
import {
  US_STATES,
  type AlertArea,
  type HazardRegime,
  type NwsOffice,
  type TimeZoneInfo,
  type UsState,
} from './us-states';
import { mulberry32 } from '@s2sp/platform';

// ---------------------------------------------------------------------------
// Record shape
// ---------------------------------------------------------------------------

/** An entry of `references`: an earlier message this one updates. */
export type AlertReference = {
  '@id': string;
  identifier: string;
  sender: string;
  sent: string;
};

/**
 * One alert: the flat `properties` object of an api.weather.gov alert feature.
 * (A type alias, not an interface, so it is assignable to Record<string, unknown>.)
 */
export type AlertRecord = {
  '@id': string;
  '@type': string;
  id: string;
  areaDesc: string;
  geocode: { SAME: string[]; UGC: string[] };
  affectedZones: string[];
  references: AlertReference[];
  sent: string;
  effective: string;
  onset: string | null;
  expires: string;
  ends: string | null;
  status: string;
  messageType: string;
  category: string;
  severity: string;
  certainty: string;
  urgency: string;
  event: string;
  sender: string;
  senderName: string;
  headline: string | null;
  description: string;
  instruction: string | null;
  response: string;
  /** Always AWIPSidentifier, WMOidentifier, BLOCKCHANNEL; the rest depend on the product. */
  parameters: Record<string, string[]>;
  scope: string;
  code: string;
  language: string;
  web: string;
  eventCode: { SAME: string[]; NationalWeatherService: string[] };
};

/** The 31 property keys of an api.weather.gov alert, in the API's order. */
export const ALERT_PROPERTY_KEYS = [
  '@id',
  '@type',
  'id',
  'areaDesc',
  'geocode',
  'affectedZones',
  'references',
  'sent',
  'effective',
  'onset',
  'expires',
  'ends',
  'status',
  'messageType',
  'category',
  'severity',
  'certainty',
  'urgency',
  'event',
  'sender',
  'senderName',
  'headline',
  'description',
  'instruction',
  'response',
  'parameters',
  'scope',
  'code',
  'language',
  'web',
  'eventCode',
] as const satisfies readonly (keyof AlertRecord)[];

/** Alerts per area (two-letter state code), areas in US_STATES order. */
export type AlertsByArea = Record<string, AlertRecord[]>;

export interface GenerateAlertsOptions {
  /** PRNG seed (any 32-bit integer). Default {@link DEFAULT_SEED}. */
  seed?: number;
  /** Fewest alerts per state (>= 1). Default 1. */
  perStateMin?: number;
  /** Most alerts per state (unless overridden). Default 4. */
  perStateMax?: number;
  /** Exact alert counts for some states. Default `{ CA: 14 }`. */
  perStateCounts?: Record<string, number>;
  /**
   * "Now" for the data set: alerts are sent within the 18 hours before it.
   * ISO 8601. Default {@link DEFAULT_BASE_TIME}.
   */
  baseTime?: string;
  /**
   * Put the two real Alaska alerts (verbatim) first in AK's list. They count
   * towards AK's total. Default true.
   */
  includeRealAlerts?: boolean;
}

export const DEFAULT_SEED = 20251014;
/** Shortly after the seed's own "updated" time (2025-10-15T02:00:00+00:00). */
export const DEFAULT_BASE_TIME = '2025-10-15T02:00:00Z';
/** The area whose list holds the real seed alerts. */
export const REAL_ALERTS_AREA = 'AK';

const DEFAULT_PER_STATE_MIN = 1;
const DEFAULT_PER_STATE_MAX = 4;
const DEFAULT_PER_STATE_COUNTS: Readonly<Record<string, number>> = { CA: 14 };

const SENDER = 'w-nws.webmaster@noaa.gov';
const API = 'https://api.weather.gov';
const OID_PREFIX = 'urn:oid:2.49.0.1.840.0.';

// ---------------------------------------------------------------------------
// The real seed records
// ---------------------------------------------------------------------------

const REAL_AK_ALERTS: readonly AlertRecord[] = seedCollection.features.map(
  (feature) => feature.properties as AlertRecord,
);

/** The two real Alaska alerts (`properties` of the seed features), as fresh deep copies. */
export function realAlaskaAlerts(): AlertRecord[] {
  return structuredClone(REAL_AK_ALERTS) as AlertRecord[];
}

// ---------------------------------------------------------------------------
// Seeded randomness
// ---------------------------------------------------------------------------

class Rng {
  private readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  float(): number {
    return this.next();
  }
  /** Integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** Float in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)];
  }
  /** `count` distinct items, in random order. */
  sample<T>(items: readonly T[], count: number): T[] {
    const copy = [...items];
    const n = Math.min(count, copy.length);
    for (let i = 0; i < n; i++) {
      const j = i + Math.floor(this.next() * (copy.length - i));
      [copy[i], copy[j]] = [copy[j], copy[i]];
    }
    return copy.slice(0, n);
  }
  weighted<T extends { weight: number }>(items: readonly T[]): T {
    const total = items.reduce((sum, item) => sum + item.weight, 0);
    let r = this.next() * total;
    for (const item of items) {
      r -= item.weight;
      if (r < 0) return item;
    }
    return items[items.length - 1];
  }
  /** Lower-case hex digits. */
  hex(length: number): string {
    let out = '';
    while (out.length < length)
      out += Math.floor(this.next() * 0x100000000)
        .toString(16)
        .padStart(8, '0');
    return out.slice(0, length);
  }
}

// ---------------------------------------------------------------------------
// Time formatting (fixed offsets, no clock, no locale)
// ---------------------------------------------------------------------------

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad2 = (n: number): string => String(n).padStart(2, '0');

const OFFSETS = new Map<string, number>();

function offsetMinutes(tz: TimeZoneInfo): number {
  let minutes = OFFSETS.get(tz.offset);
  if (minutes === undefined) {
    const match = /^([+-])(\d\d):(\d\d)$/.exec(tz.offset);
    if (!match) throw new Error(`bad UTC offset ${tz.offset}`);
    minutes = (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 60 + Number(match[3]));
    OFFSETS.set(tz.offset, minutes);
  }
  return minutes;
}

/** Wall-clock fields in the zone (read with getUTC*). */
function wall(ms: number, tz: TimeZoneInfo): Date {
  return new Date(ms + offsetMinutes(tz) * MINUTE);
}

/** "2025-10-14T14:53:00-08:00", as the API writes times. */
function isoLocal(ms: number, tz: TimeZoneInfo): string {
  const d = wall(ms, tz);
  return (
    `${d.getUTCFullYear()}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}` +
    `T${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}${tz.offset}`
  );
}

/** "2025-10-14T20:45:00-00:00", the UTC form used in eventMotionDescription. */
function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', '-00:00');
}

/** "251014T2100Z", the VTEC time form. */
function vtecTime(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCFullYear() % 100)}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}T${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}Z`;
}

/** "142057": day, hour, minute (UTC) of a WMO heading. */
function wmoTime(ms: number): string {
  const d = new Date(ms);
  return `${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}`;
}

function hour12(hours: number): { h: number; ampm: 'AM' | 'PM' } {
  return { h: hours % 12 === 0 ? 12 : hours % 12, ampm: hours < 12 ? 'AM' : 'PM' };
}

/** "October 14 at 2:53PM AKDT", as in the API's headline. */
function headlineTime(ms: number, tz: TimeZoneInfo): string {
  const d = wall(ms, tz);
  const { h, ampm } = hour12(d.getUTCHours());
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} at ${h}:${pad2(d.getUTCMinutes())}${ampm} ${tz.abbr}`;
}

/** "10 PM" or "345 PM", as in product text. */
function textTime(ms: number, tz: TimeZoneInfo): string {
  const d = wall(ms, tz);
  const { h, ampm } = hour12(d.getUTCHours());
  return d.getUTCMinutes() === 0 ? `${h} ${ampm}` : `${h}${pad2(d.getUTCMinutes())} ${ampm}`;
}

/** "this evening", "late tonight", "Wednesday", relative to the issuance time. */
function dayPhrase(ms: number, sentMs: number, tz: TimeZoneInfo): string {
  const d = wall(ms, tz);
  const s = wall(sentMs, tz);
  const dayIndex = (x: Date): number =>
    Math.floor(Date.UTC(x.getUTCFullYear(), x.getUTCMonth(), x.getUTCDate()) / (24 * HOUR));
  const days = dayIndex(d) - dayIndex(s);
  const hour = d.getUTCHours();
  if (days === 0) return hour < 12 ? 'this morning' : hour < 18 ? 'this afternoon' : 'this evening';
  if (days === 1 && hour < 6) return 'late tonight';
  const weekday = WEEKDAYS[d.getUTCDay()];
  return hour >= 18 ? `${weekday} evening` : weekday;
}

const roundTo = (ms: number, step: number): number => Math.round(ms / step) * step;
const ceilTo = (ms: number, step: number): number => Math.ceil(ms / step) * step;

// ---------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------

/** Wraps a paragraph at `width` columns, as NWS products are (lines joined by "\n"). */
function wrap(paragraph: string, width = 66): string {
  const lines: string[] = [];
  let line = '';
  for (const word of paragraph.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.join('\n');
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** "A", "A and B", "A, B and C". */
function listing(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

const COUNTY_TERM: Readonly<Record<string, string>> = { LA: 'Parish', AK: 'Borough', PR: 'Municipio' };

/** "Cleveland County", "Caddo Parish", "City of Norfolk", "District of Columbia". */
function countyName(state: UsState, area: AlertArea): string {
  const city = /^(.*) \(city\)$/.exec(area.county);
  if (city) return `City of ${city[1]}`;
  if (state.code === 'DC') return area.county;
  return `${area.county} ${COUNTY_TERM[state.code] ?? 'County'}`;
}

/** "Cleveland, OK" as in areaDesc of county-based alerts. */
function countyAreaDesc(state: UsState, area: AlertArea): string {
  return `${area.county.replace(/ \(city\)$/, ' City')}, ${state.code}`;
}

const COMPASS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];
const PART_OF_COUNTY = [
  'Northwestern',
  'Northeastern',
  'Southwestern',
  'Southeastern',
  'Central',
  'Northern',
  'Southern',
  'Eastern',
  'Western',
];
const PART_OF_STATE = ['central', 'northern', 'southern', 'eastern', 'western', 'northeastern', 'southwestern'];
const HAIL = [
  { inches: '0.75', name: 'penny' },
  { inches: '1.00', name: 'quarter' },
  { inches: '1.25', name: 'half dollar' },
  { inches: '1.50', name: 'ping pong ball' },
  { inches: '1.75', name: 'golf ball' },
];

function uniq(values: readonly string[]): string[] {
  return [...new Set(values)];
}

// ---------------------------------------------------------------------------
// One alert
// ---------------------------------------------------------------------------

interface AlertContext {
  rng: Rng;
  state: UsState;
  type: NwsEventType;
  office: NwsOffice;
  areas: AlertArea[];
  isUpdate: boolean;
  sent: number;
  onset: number;
  ends: number | null;
  expires: number;
  etn: number;
}

function newOid(rng: Rng, segment = 1): string {
  return `${OID_PREFIX}${rng.hex(40)}.${String(segment).padStart(3, '0')}.1`;
}

function ugcOf(ctx: AlertContext, area: AlertArea): string {
  return ctx.type.ugc === 'county'
    ? `${ctx.state.code}C${area.countyFips}`
    : `${ctx.state.code}Z${String(area.zone).padStart(3, '0')}`;
}

const ZONE_PATH = { zone: 'forecast', county: 'county', fire: 'fire' } as const;

function wmoRegion(state: UsState): string {
  return state.code === 'AK' ? 'AK' : state.code === 'HI' ? 'HW' : state.code === 'PR' ? 'CA' : 'US';
}

/** "Until 10 PM AKDT this evening" / "From 7 PM this evening through 10 AM PDT Wednesday". */
function validity(ctx: AlertContext): string {
  const { office, sent, onset, ends } = ctx;
  const tz = office.timeZone;
  if (ends === null) return 'Until further notice';
  const end = `${textTime(ends, tz)} ${tz.abbr} ${dayPhrase(ends, sent, tz)}`;
  if (onset <= sent + HOUR) return `Until ${end}`;
  return `From ${textTime(onset, tz)} ${dayPhrase(onset, sent, tz)} through ${end}`;
}

/** NWSheadline of a segmented product. */
function segmentedHeadline(ctx: AlertContext, action: string): string {
  const when = validity(ctx)
    .replace(/^From (.*) through /, 'from $1 to ')
    .replace(/^Until /, 'until ');
  const verb = !ctx.isUpdate ? 'IN EFFECT' : action === 'EXT' ? 'NOW IN EFFECT' : 'REMAINS IN EFFECT';
  return `${ctx.type.event} ${verb} ${when}`.toUpperCase();
}

function vtecString(ctx: AlertContext, action: string): string | undefined {
  if (!ctx.type.vtec) return undefined;
  const begin = ctx.isUpdate && ctx.onset <= ctx.sent ? '000000T0000Z' : vtecTime(ctx.onset);
  const end = ctx.ends === null ? '000000T0000Z' : vtecTime(ctx.ends);
  return `/O.${action}.${ctx.office.icao}.${ctx.type.vtec}.${String(ctx.etn).padStart(4, '0')}.${begin}-${end}/`;
}

function segmentedText(ctx: AlertContext): { description: string; instruction: string | null } {
  const { rng, type, state, areas } = ctx;
  const where =
    type.ugc === 'county'
      ? `Portions of ${listing(uniq(areas.map((a) => countyName(state, a))))}`
      : listing(uniq(areas.map((a) => a.zoneName)));
  const bullets = [
    `* WHAT...${rng.pick(type.what)}`,
    `* WHERE...${where}.`,
    `* WHEN...${validity(ctx)}.`,
    `* IMPACTS...${rng.pick(type.impacts)}`,
  ];
  if (type.details && rng.chance(0.5)) bullets.push(`* ADDITIONAL DETAILS...${rng.pick(type.details)}`);
  return {
    description: bullets.map((b) => wrap(b)).join('\n\n'),
    instruction: type.instruction ? wrap(rng.pick(type.instruction)) : null,
  };
}

function statementText(ctx: AlertContext, withProductId: boolean): { description: string; instruction: string | null } {
  const { rng, type, state, office, areas } = ctx;
  const values = {
    areas: listing(uniq(areas.map((a) => a.zoneName))),
    city: office.city,
    office: office.name,
    state: state.name,
  };
  const paragraphs = [wrap(fill(rng.pick(type.what), values))];
  if (type.details && (type.kind === 'outlook' || rng.chance(0.6)))
    paragraphs.push(wrap(fill(rng.pick(type.details), values)));
  if (withProductId) paragraphs.unshift(`${type.awips}${office.id}`);
  return {
    description: paragraphs.join('\n\n'),
    instruction: type.instruction && rng.chance(0.8) ? wrap(rng.pick(type.instruction)) : null,
  };
}

function convectiveWatchText(ctx: AlertContext): string {
  const { type, state, office, areas, ends, sent, isUpdate, etn } = ctx;
  const tz = office.timeZone;
  const counties = uniq(areas.map((a) => a.county.replace(/ \(city\)$/, '')));
  const name = `${type.event} ${etn}`;
  const until = ends === null ? '' : ` until ${textTime(ends, tz)} ${tz.abbr} ${dayPhrase(ends, sent, tz)}`;
  const lead = isUpdate
    ? `${name} remains valid${until} for the following areas`
    : `The National Weather Service has issued ${name} in effect${until} for the following areas`;
  const unit = COUNTY_TERM[state.code] === 'Parish' ? 'parishes' : 'counties';
  return [
    wrap(lead),
    `In ${state.name} this watch includes ${counties.length} ${counties.length === 1 ? unit.replace(/ies$/, 'y').replace(/es$/, '') : unit}`,
    `In ${ctx.rng.pick(PART_OF_STATE)} ${state.name}`,
    wrap(counties.join('   ')),
  ].join('\n\n');
}

function stormBasedText(
  ctx: AlertContext,
  parameters: Record<string, string[]>,
): { description: string; instruction: string | null } {
  const { rng, type, state, office, areas, sent, ends, isUpdate } = ctx;
  const tz = office.timeZone;
  const untilText = `${textTime(ends ?? sent, tz)} ${tz.abbr}`;
  const counties = uniq(areas.map((a) => countyName(state, a)));
  const countyLines = counties.map(
    (c) => `${rng.pick(PART_OF_COUNTY)} ${c} in ${rng.pick(PART_OF_STATE)} ${state.name}...`,
  );

  // Storm motion: direction the storm comes FROM (degrees) and speed.
  const fromDeg = rng.int(190, 290);
  const knots = rng.int(10, 40);
  const mph = Math.round(knots * 1.15078);
  const towards = COMPASS[Math.round(((fromDeg + 180) % 360) / 45) % 8];
  const [lat0, lon0] = state.center;
  const lat = (lat0 + rng.between(-0.6, 0.6)).toFixed(2);
  const lon = (lon0 + rng.between(-0.8, 0.8)).toFixed(2);
  parameters['eventMotionDescription'] = [
    `${isoUtc(sent - rng.int(1, 4) * MINUTE)}...storm...${fromDeg}DEG...${knots}KT...${lat},${lon}`,
  ];

  const observed = rng.chance(0.3);
  let hazard: string;
  switch (type.nws) {
    case 'TOR': {
      const hail = rng.pick(HAIL.slice(0, 4));
      hazard = rng.chance(0.6) ? `Tornado and ${hail.name} size hail` : 'Tornado';
      parameters['tornadoDetection'] = [observed ? 'OBSERVED' : 'RADAR INDICATED'];
      parameters['maxHailSize'] = [hazard === 'Tornado' ? '0.00' : hail.inches];
      break;
    }
    case 'SVR': {
      const hail = rng.pick(HAIL);
      const gust = rng.pick([60, 60, 70, 80]);
      hazard = `${gust} mph wind gusts and ${hail.name} size hail`;
      parameters['windThreat'] = [observed ? 'OBSERVED' : 'RADAR INDICATED'];
      parameters['maxWindGust'] = [`${gust} MPH`];
      parameters['hailThreat'] = [observed ? 'OBSERVED' : 'RADAR INDICATED'];
      parameters['maxHailSize'] = [hail.inches];
      if (gust >= 80) parameters['thunderstormDamageThreat'] = ['CONSIDERABLE'];
      break;
    }
    default: {
      hazard = rng.pick(type.hazard ?? ['Flash flooding']);
      parameters['flashFloodDetection'] = [observed ? 'OBSERVED' : 'RADAR INDICATED'];
      if (hazard.startsWith('Life threatening')) parameters['flashFloodDamageThreat'] = ['CONSIDERABLE'];
    }
  }
  const source = observed
    ? rng.pick((type.source ?? ['Radar indicated']).slice(1))
    : (type.source ?? ['Radar indicated'])[0];
  const storm = rng.pick(type.storm ?? ['a severe thunderstorm']);
  const where = counties[0];
  const atLine = `At ${textTime(sent, tz)} ${tz.abbr}, ${storm} was located over ${where}, moving ${towards} at ${mph} mph.`;

  const sections = isUpdate
    ? [
        `${type.followUpAwips ?? type.awips}${office.id}`,
        wrap(
          `The ${type.event} remains in effect until ${untilText} for ${countyLines.join(' ').replace(/\.\.\.$/, '')}...`,
        ),
        `* ${wrap(atLine)}`,
      ]
    : [
        `${type.awips}${office.id}`,
        `The National Weather Service in ${office.city} has issued a`,
        `* ${type.event} for...\n${countyLines.join('\n')}`,
        `* Until ${untilText}.`,
        `* ${wrap(atLine)}`,
      ];
  sections.push(`HAZARD...${hazard}.`, `SOURCE...${source}.`, wrap(`IMPACT...${rng.pick(type.impacts)}`));
  return {
    description: sections.join('\n\n'),
    instruction: type.instruction ? wrap(rng.pick(type.instruction)) : null,
  };
}

function buildAlert(
  rng: Rng,
  state: UsState,
  type: NwsEventType,
  office: NwsOffice,
  eligibleAreas: readonly AlertArea[],
  baseMs: number,
): AlertRecord {
  const tz = office.timeZone;
  const areas = rng.sample(eligibleAreas, rng.int(1, Math.min(3, eligibleAreas.length)));
  const isUpdate = rng.chance(type.kind === 'outlook' ? 0.2 : 0.3);

  // Times: sent within the 18 hours before the base time, whole minutes.
  const sent = roundTo(baseMs - rng.int(5, 18 * 60) * MINUTE, MINUTE);
  let onset: number;
  let ends: number | null;
  let expires: number;
  switch (type.kind) {
    case 'stormBased': {
      onset = sent;
      ends = ceilTo(sent + rng.between(type.durationHours[0], type.durationHours[1]) * HOUR, 15 * MINUTE);
      expires = ends;
      break;
    }
    case 'statement':
    case 'outlook': {
      onset = sent;
      ends = null;
      expires = ceilTo(sent + rng.between(type.durationHours[0], type.durationHours[1]) * HOUR, HOUR);
      break;
    }
    default: {
      const lead = rng.between(type.leadHours[0], type.leadHours[1]);
      onset = lead < 0.25 ? sent : ceilTo(sent + lead * HOUR, HOUR);
      ends = ceilTo(onset + rng.between(type.durationHours[0], type.durationHours[1]) * HOUR, HOUR);
      if (type.nws === 'FLW' && rng.chance(0.25)) ends = null; // "until further notice"
      const nextUpdate = ceilTo(sent + rng.int(4, 12) * HOUR, HOUR);
      expires = ends === null ? nextUpdate : Math.min(ends, Math.max(nextUpdate, onset + HOUR));
    }
  }

  const ctx: AlertContext = {
    rng,
    state,
    type,
    office,
    areas,
    isUpdate,
    sent,
    onset,
    ends,
    expires,
    etn: type.kind === 'convectiveWatch' ? rng.int(600, 760) : rng.int(1, 140),
  };
  const action = isUpdate ? (rng.chance(0.3) && type.kind === 'segmented' ? 'EXT' : 'CON') : 'NEW';
  const oid = newOid(rng, rng.chance(0.15) ? 2 : 1);
  const awipsProduct = isUpdate ? (type.followUpAwips ?? type.awips) : type.awips;

  const parameters: Record<string, string[]> = {
    AWIPSidentifier: [`${awipsProduct}${office.id}`],
    WMOidentifier: [`${type.wmo[0]}${wmoRegion(state)}${type.wmo[1]}${rng.int(1, 8)} ${office.icao} ${wmoTime(sent)}`],
  };

  let text: { description: string; instruction: string | null };
  switch (type.kind) {
    case 'stormBased':
      if (isUpdate) {
        const counties = uniq(areas.map((a) => countyName(state, a)));
        parameters['NWSheadline'] = [
          `A ${type.event} REMAINS IN EFFECT UNTIL ${textTime(ends!, tz)} ${tz.abbr} FOR ${listing(counties)}`.toUpperCase(),
        ];
      }
      text = stormBasedText(ctx, parameters);
      break;
    case 'convectiveWatch':
      text = { description: convectiveWatchText(ctx), instruction: null };
      break;
    case 'statement':
    case 'outlook':
      if (type.nwsHeadlines) parameters['NWSheadline'] = [rng.pick(type.nwsHeadlines)];
      text = statementText(ctx, type.kind === 'outlook');
      break;
    default:
      parameters['NWSheadline'] = [segmentedHeadline(ctx, action)];
      text = segmentedText(ctx);
  }

  parameters['BLOCKCHANNEL'] = type.wea && !isUpdate ? ['EAS', 'NWEM'] : ['EAS', 'NWEM', 'CMAS'];
  if (type.same !== 'NWS') parameters['EAS-ORG'] = ['WXR'];
  const vtec = vtecString(ctx, action);
  if (vtec) parameters['VTEC'] = [vtec];
  if (ends !== null && type.kind !== 'statement' && type.kind !== 'outlook')
    parameters['eventEndingTime'] = [isoLocal(ends, tz)];

  const references: AlertReference[] = [];
  if (isUpdate) {
    const count = rng.chance(0.8) ? 1 : 2;
    for (let i = count; i >= 1; i--) {
      const identifier = newOid(rng);
      references.push({
        '@id': `${API}/alerts/${identifier}`,
        identifier,
        sender: SENDER,
        sent: isoLocal(sent - i * rng.int(1, 6) * HOUR - rng.int(0, 59) * MINUTE, tz),
      });
    }
    if (rng.chance(0.4)) {
      const older = Array.from(
        { length: rng.int(1, 2) },
        (_, i) => `${SENDER},${newOid(rng)},${isoLocal(sent - (8 + 6 * i) * HOUR - rng.int(0, 59) * MINUTE, tz)}`,
      );
      parameters['expiredReferences'] = [older.join(' ')];
    }
  }
  if (type.wea && !isUpdate) {
    const short = type.nws === 'TOR' ? 'Take shelter now.' : 'Avoid flooded areas.';
    parameters['WEAHandling'] = ['Imminent Threat'];
    parameters['CMAMtext'] = [
      `NWS: ${type.event.toUpperCase()} in this area til ${textTime(ends!, tz)} ${tz.abbr}. ${short} Check media.`,
    ];
    parameters['CMAMlongtext'] = [
      `National Weather Service: ${type.event.toUpperCase()} in this area until ${textTime(ends!, tz)} ${tz.abbr}. ${short} Check local media and authorities.`,
    ];
  }

  const headline =
    `${type.event} issued ${headlineTime(sent, tz)}` +
    (ends !== null ? ` until ${headlineTime(ends, tz)}` : '') +
    ` by NWS ${office.name}`;

  const ugcs = uniq(areas.map((a) => ugcOf(ctx, a)));
  const areaDesc = uniq(areas.map((a) => (type.ugc === 'county' ? countyAreaDesc(state, a) : a.zoneName))).join('; ');

  // Keys in the API's order (ALERT_PROPERTY_KEYS).
  return {
    '@id': `${API}/alerts/${oid}`,
    '@type': 'wx:Alert',
    id: oid,
    areaDesc,
    geocode: {
      SAME: uniq(areas.map((a) => `0${state.fips}${a.countyFips}`)),
      UGC: ugcs,
    },
    affectedZones: ugcs.map((ugc) => `${API}/zones/${ZONE_PATH[type.ugc]}/${ugc}`),
    references,
    sent: isoLocal(sent, tz),
    effective: isoLocal(sent, tz),
    onset: isoLocal(onset, tz),
    expires: isoLocal(expires, tz),
    ends: ends === null ? null : isoLocal(ends, tz),
    status: 'Actual',
    messageType: isUpdate ? 'Update' : 'Alert',
    category: type.category,
    severity: type.severity,
    certainty: type.certainty,
    urgency: type.urgency,
    event: type.event,
    sender: SENDER,
    senderName: `NWS ${office.name}`,
    headline,
    description: text.description,
    instruction: text.instruction,
    response: type.response,
    parameters,
    scope: 'Public',
    code: 'IPAWSv1.0',
    language: 'en-US',
    web: 'http://www.weather.gov',
    eventCode: { SAME: [type.same], NationalWeatherService: [type.nws] },
  };
}

// ---------------------------------------------------------------------------
// Public generators
// ---------------------------------------------------------------------------

/** Where an event type can be issued in a state: the offices and their zones that have one of its hazards. */
interface EventPlacement {
  type: NwsEventType;
  weight: number;
  offices: readonly { office: NwsOffice; areas: readonly AlertArea[] }[];
}

function areaHazards(state: UsState, area: AlertArea): readonly HazardRegime[] {
  return area.hazards ?? state.hazards.filter((h) => h !== 'coastal');
}

const PLACEMENTS: ReadonlyMap<string, readonly EventPlacement[]> = new Map(
  US_STATES.map((state) => {
    const placements: EventPlacement[] = [];
    for (const type of NWS_EVENT_TYPES) {
      if (!type.hazards.some((h) => state.hazards.includes(h))) continue;
      const offices = state.offices
        .map((office) => ({
          office,
          areas: office.areas.filter((area) => type.hazards.some((h) => areaHazards(state, area).includes(h))),
        }))
        .filter((o) => o.areas.length > 0);
      if (offices.length > 0) placements.push({ type, weight: type.weight, offices });
    }
    if (placements.length === 0) throw new Error(`no event type applies to ${state.code}`);
    return [state.code, placements];
  }),
);

function randomAlert(rng: Rng, state: UsState, baseMs: number): AlertRecord {
  const placement = rng.weighted(PLACEMENTS.get(state.code)!);
  const { office, areas } = rng.pick(placement.offices);
  return buildAlert(rng, state, placement.type, office, areas, baseMs);
}

function parseBaseTime(baseTime: string): number {
  const ms = Date.parse(baseTime);
  if (Number.isNaN(ms)) throw new RangeError(`generateAlerts: baseTime ${JSON.stringify(baseTime)} is not an ISO date`);
  return ms;
}

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isInteger(value) || value < min)
    throw new RangeError(`generateAlerts: ${name} must be an integer >= ${min} (got ${value})`);
}

/**
 * Alerts for every state, DC and PR (keys in US_STATES order). Each area gets
 * between perStateMin and perStateMax alerts (CA gets 14 by default); AK's list
 * starts with the two real alerts, verbatim. Deterministic in the options.
 */
export function generateAlerts(options: GenerateAlertsOptions = {}): AlertsByArea {
  const seed = options.seed ?? DEFAULT_SEED;
  const min = options.perStateMin ?? DEFAULT_PER_STATE_MIN;
  const max = options.perStateMax ?? Math.max(DEFAULT_PER_STATE_MAX, min);
  const counts = options.perStateCounts ?? DEFAULT_PER_STATE_COUNTS;
  const includeReal = options.includeRealAlerts ?? true;
  const baseMs = parseBaseTime(options.baseTime ?? DEFAULT_BASE_TIME);
  checkCount('perStateMin', min, 1);
  checkCount('perStateMax', max, min);
  for (const [code, count] of Object.entries(counts)) {
    if (!US_STATES.some((s) => s.code === code))
      throw new RangeError(`generateAlerts: perStateCounts has unknown area ${JSON.stringify(code)}`);
    checkCount(`perStateCounts.${code}`, count, 1);
  }

  const rng = new Rng(seed);
  const out: AlertsByArea = {};
  for (const state of US_STATES) {
    const total = counts[state.code] ?? rng.int(min, max);
    const alerts: AlertRecord[] = includeReal && state.code === REAL_ALERTS_AREA ? realAlaskaAlerts() : [];
    while (alerts.length < total) alerts.push(randomAlert(rng, state, baseMs));
    out[state.code] = alerts;
  }
  return out;
}

/**
 * `rows` synthetic alerts (no real ones) for benchmarks: states chosen uniformly
 * at random, same record shape as {@link generateAlerts}. Deterministic in
 * (rows, seed); the first n rows do not depend on `rows`.
 */
export function generateLargeAlertSet(
  rows: number,
  seed: number = DEFAULT_SEED,
  baseTime: string = DEFAULT_BASE_TIME,
): AlertRecord[] {
  if (!Number.isInteger(rows) || rows < 0)
    throw new RangeError(`generateLargeAlertSet: rows must be an integer >= 0 (got ${rows})`);
  const rng = new Rng(seed ^ 0x5bd1e995);
  const baseMs = parseBaseTime(baseTime);
  const out: AlertRecord[] = new Array<AlertRecord>(rows);
  for (let i = 0; i < rows; i++) {
    out[i] = randomAlert(rng, rng.pick(US_STATES), baseMs);
  }
  return out;
}
