import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { AlertCatalog, UnknownAreaError } from '../../apps/weather-server/src/alerts/alert-catalog';
import {
  ALERT_PROPERTY_KEYS,
  generateAlerts,
  generateLargeAlertSet,
  realAlaskaAlerts,
  type AlertRecord,
} from '../../apps/weather-server/src/alerts/alert-generator';
import { US_STATES } from '../../apps/weather-server/src/alerts/us-states';
import { mulberry32 } from '../../libs/platform/src';

// dist/test/weather → repository root (the JSON is read from the source tree).
const SEED_FILE = join(
  __dirname,
  '..',
  '..',
  '..',
  'apps/weather-server/src/alerts/data/nws-alerts-AK-2025-10-14.json',
);
const seed = JSON.parse(readFileSync(SEED_FILE, 'utf8')) as { features: { properties: Record<string, unknown> }[] };
const REAL = seed.features.map((f) => f.properties);
const REAL_KEYS = Object.keys(REAL[0]);

const FIFTY_STATES_AND_DC = [
  'AL',
  'AK',
  'AZ',
  'AR',
  'CA',
  'CO',
  'CT',
  'DE',
  'DC',
  'FL',
  'GA',
  'HI',
  'ID',
  'IL',
  'IN',
  'IA',
  'KS',
  'KY',
  'LA',
  'ME',
  'MD',
  'MA',
  'MI',
  'MN',
  'MS',
  'MO',
  'MT',
  'NE',
  'NV',
  'NH',
  'NJ',
  'NM',
  'NY',
  'NC',
  'ND',
  'OH',
  'OK',
  'OR',
  'PA',
  'RI',
  'SC',
  'SD',
  'TN',
  'TX',
  'UT',
  'VT',
  'VA',
  'WA',
  'WV',
  'WI',
  'WY',
];

const ISO_WITH_OFFSET = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/;
const OID = /^urn:oid:2\.49\.0\.1\.840\.0\.[0-9a-f]{40}\.\d{3}\.1$/;
const SEVERITIES = new Set(['Extreme', 'Severe', 'Moderate', 'Minor', 'Unknown']);
const CERTAINTIES = new Set(['Observed', 'Likely', 'Possible', 'Unlikely', 'Unknown']);
const URGENCIES = new Set(['Immediate', 'Expected', 'Future', 'Past', 'Unknown']);
const RESPONSES = new Set([
  'Shelter',
  'Evacuate',
  'Prepare',
  'Execute',
  'Avoid',
  'Monitor',
  'Assess',
  'AllClear',
  'None',
]);

const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

/** Asserts the record has the real record's keys and value shapes. */
function assertShape(record: Record<string, unknown>, where: string): void {
  assert.deepEqual(Object.keys(record), REAL_KEYS, `${where}: key set/order`);
  for (const key of [
    '@id',
    '@type',
    'id',
    'areaDesc',
    'sent',
    'effective',
    'expires',
    'status',
    'messageType',
    'category',
    'severity',
    'certainty',
    'urgency',
    'event',
    'sender',
    'senderName',
    'description',
    'response',
    'scope',
    'code',
    'language',
    'web',
  ]) {
    assert.equal(typeof record[key], 'string', `${where}: ${key} is a string`);
  }
  for (const key of ['onset', 'ends', 'headline', 'instruction']) {
    assert.ok(record[key] === null || typeof record[key] === 'string', `${where}: ${key} is string|null`);
  }
  for (const key of ['sent', 'effective', 'expires'])
    assert.match(record[key] as string, ISO_WITH_OFFSET, `${where}: ${key}`);
  for (const key of ['onset', 'ends'])
    if (record[key] !== null) assert.match(record[key] as string, ISO_WITH_OFFSET, `${where}: ${key}`);

  const geocode = record['geocode'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(geocode), ['SAME', 'UGC'], `${where}: geocode keys`);
  assert.ok(isStringArray(geocode['SAME']) && geocode['SAME'].length > 0, `${where}: geocode.SAME`);
  assert.ok(isStringArray(geocode['UGC']) && geocode['UGC'].length > 0, `${where}: geocode.UGC`);
  for (const same of geocode['SAME']) assert.match(same, /^0\d{5}$/, `${where}: SAME code`);
  for (const ugc of geocode['UGC']) assert.match(ugc, /^[A-Z]{2}[ZC]\d{3}$/, `${where}: UGC code`);

  assert.ok(isStringArray(record['affectedZones']), `${where}: affectedZones`);
  assert.equal(record['affectedZones'].length, geocode['UGC'].length, `${where}: one zone URL per UGC`);
  for (const url of record['affectedZones'])
    assert.match(url, /^https:\/\/api\.weather\.gov\/zones\/(forecast|county|fire)\/[A-Z]{2}[ZC]\d{3}$/);

  assert.ok(Array.isArray(record['references']), `${where}: references`);
  for (const ref of record['references'] as Record<string, unknown>[]) {
    assert.deepEqual(Object.keys(ref), ['@id', 'identifier', 'sender', 'sent'], `${where}: reference keys`);
    assert.match(ref['identifier'] as string, OID);
    assert.equal(ref['@id'], `https://api.weather.gov/alerts/${ref['identifier'] as string}`);
    assert.match(ref['sent'] as string, ISO_WITH_OFFSET);
  }

  const parameters = record['parameters'] as Record<string, unknown>;
  assert.ok(
    typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters),
    `${where}: parameters`,
  );
  for (const key of ['AWIPSidentifier', 'WMOidentifier', 'BLOCKCHANNEL'])
    assert.ok(key in parameters, `${where}: parameters.${key}`);
  for (const [key, value] of Object.entries(parameters))
    assert.ok(isStringArray(value), `${where}: parameters.${key} is string[]`);
  assert.match((parameters['WMOidentifier'] as string[])[0], /^[A-Z]{4}\d\d [A-Z]{4} \d{6}$/, `${where}: WMO heading`);
  if (parameters['VTEC'])
    assert.match(
      (parameters['VTEC'] as string[])[0],
      /^\/O\.(NEW|CON|EXT)\.[A-Z]{4}\.[A-Z]{2}\.[AWYS]\.\d{4}\.\d{6}T\d{4}Z-\d{6}T\d{4}Z\/$/,
    );

  const eventCode = record['eventCode'] as Record<string, unknown>;
  assert.deepEqual(Object.keys(eventCode), ['SAME', 'NationalWeatherService'], `${where}: eventCode keys`);
  assert.ok(
    isStringArray(eventCode['SAME']) && isStringArray(eventCode['NationalWeatherService']),
    `${where}: eventCode arrays`,
  );

  assert.match(record['id'] as string, OID, `${where}: id`);
  assert.equal(record['@id'], `https://api.weather.gov/alerts/${record['id'] as string}`, `${where}: @id`);
  assert.equal(record['@type'], 'wx:Alert');
  assert.ok(SEVERITIES.has(record['severity'] as string), `${where}: severity`);
  assert.ok(CERTAINTIES.has(record['certainty'] as string), `${where}: certainty`);
  assert.ok(URGENCIES.has(record['urgency'] as string), `${where}: urgency`);
  assert.ok(RESPONSES.has(record['response'] as string), `${where}: response`);
  assert.ok(['Alert', 'Update', 'Cancel'].includes(record['messageType'] as string), `${where}: messageType`);
  assert.match(record['senderName'] as string, /^NWS /, `${where}: senderName`);
  assert.ok((record['headline'] as string).startsWith(`${record['event'] as string} issued `), `${where}: headline`);

  const sent = Date.parse(record['sent'] as string);
  assert.ok(Date.parse(record['expires'] as string) > sent, `${where}: expires after sent`);
  if (record['ends'] !== null)
    assert.ok(Date.parse(record['ends'] as string) >= Date.parse(record['onset'] as string), `${where}: ends >= onset`);
  if (record['messageType'] === 'Update')
    assert.ok((record['references'] as unknown[]).length > 0, `${where}: Update has references`);
}

const catalog = new AlertCatalog();

test('us-states reference data is consistent', () => {
  const codes = US_STATES.map((s) => s.code);
  assert.equal(new Set(codes).size, codes.length);
  assert.equal(new Set(US_STATES.map((s) => s.fips)).size, codes.length);
  for (const state of US_STATES) {
    assert.match(state.fips, /^\d\d$/);
    assert.ok(state.offices.length > 0, state.code);
    const zones = new Map<number, string>();
    for (const office of state.offices) {
      assert.match(office.id, /^[A-Z]{3}$/);
      assert.match(office.icao, /^[KPT][A-Z]{3}$/);
      assert.match(office.timeZone.offset, /^[+-]\d\d:\d\d$/);
      assert.ok(office.areas.length > 0, `${state.code} ${office.id}`);
      for (const area of office.areas) {
        assert.match(area.countyFips, /^\d{3}$/);
        assert.ok(area.zone > 0 && area.zone < 1000);
        const seen = zones.get(area.zone);
        assert.ok(seen === undefined || seen === area.zoneName, `${state.code}Z${area.zone} has two names`);
        zones.set(area.zone, area.zoneName);
      }
    }
    if (state.hazards.includes('coastal')) {
      const coastal = state.offices.some((o) => o.areas.some((a) => a.hazards?.includes('coastal')));
      assert.ok(coastal, `${state.code} has coastal hazards but no coastal zone`);
    }
  }
});

test('the seed file is the real api.weather.gov FeatureCollection with 31 property keys', () => {
  assert.equal(REAL.length, 2);
  assert.equal(REAL_KEYS.length, 31);
  assert.deepEqual(REAL_KEYS, [...ALERT_PROPERTY_KEYS]);
  assert.deepEqual(Object.keys(REAL[1]), REAL_KEYS);
});

test('areas(): all 50 states, DC and PR', () => {
  const areas = catalog.areas();
  for (const code of FIFTY_STATES_AND_DC) assert.ok(areas.includes(code), `missing ${code}`);
  assert.ok(areas.includes('PR'));
  assert.equal(areas.length, 52);
  assert.deepEqual(areas, [...areas].sort());
});

test('every area has at least one alert, CA at least 10', () => {
  for (const area of catalog.areas()) assert.ok(catalog.forArea(area).length >= 1, `${area} has no alerts`);
  assert.ok(catalog.forArea('CA').length >= 10);
  assert.equal(catalog.forArea('CA').length, 14);
});

test('every record has exactly the real record key set and value shapes', () => {
  const ids = new Set<string>();
  for (const area of catalog.areas()) {
    const state = US_STATES.find((s) => s.code === area)!;
    for (const [i, record] of catalog.forArea(area).entries()) {
      assertShape(record, `${area}[${i}]`);
      ids.add(record.id);
      for (const ugc of record.geocode.UGC) assert.ok(ugc.startsWith(area), `${area}[${i}]: UGC ${ugc} in state`);
      for (const same of record.geocode.SAME)
        assert.ok(same.startsWith(`0${state.fips}`), `${area}[${i}]: SAME ${same} in state`);
    }
  }
  const total = catalog.areas().reduce((n, a) => n + catalog.forArea(a).length, 0);
  assert.equal(ids.size, total, 'ids are unique');
});

test('the real records pass the same shape checks', () => {
  REAL.forEach((record, i) => assertShape(record, `real[${i}]`));
});

test("the two real AK alerts are in AK's list verbatim", () => {
  const ak = catalog.forArea('AK');
  assert.deepEqual(ak.slice(0, 2), REAL);
  assert.deepEqual(realAlaskaAlerts(), REAL);
  assert.ok(ak.some((a) => a.event === 'High Wind Warning' && a.senderName === 'NWS Juneau AK'));
  // Not in any other area.
  for (const area of catalog.areas().filter((a) => a !== 'AK')) {
    for (const record of catalog.forArea(area)) assert.ok(!REAL.some((r) => r['id'] === record.id));
  }
});

test('generation is deterministic; the seed matters', () => {
  assert.deepEqual(generateAlerts(), generateAlerts());
  assert.deepEqual(generateAlerts({ seed: 42 }), generateAlerts({ seed: 42 }));
  assert.notDeepEqual(generateAlerts({ seed: 42 }), generateAlerts({ seed: 43 }));
  assert.deepEqual(new AlertCatalog().forArea('TX'), new AlertCatalog().forArea('tx'));
  const a = mulberry32(7);
  const b = mulberry32(7);
  for (let i = 0; i < 10; i++) assert.equal(a(), b());
});

test('generator options: counts, overrides, no real alerts', () => {
  const data = generateAlerts({
    seed: 1,
    perStateMin: 2,
    perStateMax: 3,
    perStateCounts: { CA: 20, TX: 5 },
    includeRealAlerts: false,
  });
  assert.equal(data['CA'].length, 20);
  assert.equal(data['TX'].length, 5);
  for (const [area, alerts] of Object.entries(data)) {
    if (area === 'CA' || area === 'TX') continue;
    assert.ok(alerts.length >= 2 && alerts.length <= 3, `${area}: ${alerts.length}`);
  }
  assert.ok(!data['AK'].some((a) => REAL.some((r) => r['id'] === a.id)));
  assert.throws(() => generateAlerts({ perStateMin: 0 }), RangeError);
  assert.throws(() => generateAlerts({ perStateCounts: { XX: 3 } }), RangeError);
  assert.throws(() => generateAlerts({ baseTime: 'yesterday' }), RangeError);
});

test('timestamps come from the base time, not the clock', () => {
  const base = Date.parse('2025-10-15T02:00:00Z');
  for (const area of catalog.areas()) {
    for (const record of catalog.forArea(area)) {
      const sent = Date.parse(record.sent);
      if (REAL.some((r) => r['id'] === record.id)) continue;
      assert.ok(sent <= base && sent >= base - 18 * 3600_000 - 60_000, `${area}: sent ${record.sent}`);
    }
  }
  const shifted = generateAlerts({ baseTime: '2030-01-01T00:00:00Z', includeRealAlerts: false });
  assert.ok(shifted['CA'].every((a) => a.sent.startsWith('2029-12-31')));
});

test('forArea: case-insensitive, trims, returns copies', () => {
  assert.deepEqual(catalog.forArea('ca'), catalog.forArea('CA'));
  assert.deepEqual(catalog.forArea(' Ca '), catalog.forArea('CA'));
  const first = catalog.forArea('NY');
  first[0].event = 'mutated';
  first.length = 0;
  assert.notEqual(catalog.forArea('NY')[0].event, 'mutated');
  assert.ok(catalog.forArea('NY').length > 0);
});

test('unknown area throws UnknownAreaError listing the valid codes', () => {
  for (const bad of ['ZZ', 'California', '', 'C', '__proto__', 'constructor', '<b>x</b>']) {
    assert.throws(
      () => catalog.forArea(bad),
      (error: unknown) => {
        assert.ok(error instanceof UnknownAreaError, `${bad}: error class`);
        assert.ok(error instanceof Error);
        assert.equal(error.name, 'UnknownAreaError');
        assert.equal(error.area, bad);
        assert.match(error.message, /\bAK\b.*\bCA\b.*\bWY\b/);
        assert.deepEqual([...error.validAreas], catalog.areas());
        return true;
      },
    );
  }
});

test('large set: requested size, same shape, unique ids, deterministic', () => {
  const rows = generateLargeAlertSet(5000);
  assert.equal(rows.length, 5000);
  const ids = new Set<string>();
  rows.forEach((record, i) => {
    if (i % 7 === 0) assertShape(record, `large[${i}]`);
    else assert.deepEqual(Object.keys(record), REAL_KEYS);
    ids.add(record.id);
  });
  assert.equal(ids.size, rows.length);
  assert.ok(new Set(rows.map((r) => r.event)).size >= 20, 'many event types');
  assert.ok(new Set(rows.map((r) => r.geocode.UGC[0].slice(0, 2))).size === 52, 'all areas');
  assert.deepEqual(generateLargeAlertSet(300, 9), generateLargeAlertSet(300, 9));
  assert.deepEqual(generateLargeAlertSet(100, 9), generateLargeAlertSet(300, 9).slice(0, 100));
  assert.deepEqual(catalog.large(50), generateLargeAlertSet(50));
  assert.deepEqual(generateLargeAlertSet(0), []);
  assert.throws(() => generateLargeAlertSet(-1), RangeError);
});

test('records serialise to JSON and back unchanged (plain data only)', () => {
  const records: AlertRecord[] = catalog.forArea('CA');
  const rows: Record<string, unknown>[] = records; // AlertRecord is Record<string, unknown>-compatible
  assert.deepEqual(JSON.parse(JSON.stringify(rows)), records);
});
