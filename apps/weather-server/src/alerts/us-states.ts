/**
 * Reference data for the synthetic alert generator: the 50 states, DC and
 * Puerto Rico, each with one or more National Weather Service forecast offices
 * (WFOs) that serve it and a few counties / forecast zones per office.
 *
 * The office ids and cities and the state FIPS codes are real; the county FIPS
 * codes are believed correct. The forecast zone numbers and most zone names are
 * plausible, not authoritative (the Alaska zones AKZ724, AKZ726 and AKZ318 and
 * the boroughs 02122 and 02230 match the real seed alerts). Time zones are
 * the ones in effect in mid October (daylight saving time where observed).
 *
 * Pure data: no logic here.
 */

/**
 * Hazard regimes a state is exposed to. An event type applies to a state when
 * they share a regime (see alert-generator.ts).
 */
export type HazardRegime =
  | 'flood' // river / flash flooding: everywhere
  | 'severe' // thunderstorms, tornadoes
  | 'winter' // snow, ice, cold
  | 'heat'
  | 'fire' // red flag / fire weather
  | 'wind' // high wind (downslope, gap, synoptic)
  | 'tropical' // hurricanes, tropical storms
  | 'coastal' // coastal flood, rip currents, surf
  | 'fog'
  | 'air' // air quality alerts
  | 'dust'
  | 'lake'; // lake-effect snow

export interface TimeZoneInfo {
  /** Abbreviation used in NWS headlines, e.g. "PDT". */
  abbr: string;
  /** UTC offset used in the API's timestamps, e.g. "-07:00". */
  offset: string;
}

export interface AlertArea {
  /** Forecast zone name, used in areaDesc of zone-based alerts. */
  zoneName: string;
  /** Forecast zone number: UGC "<ST>Z<nnn>". */
  zone: number;
  /** County (borough, parish, municipio) name, used in areaDesc of county-based alerts. */
  county: string;
  /** Three-digit county FIPS code; SAME code = "0" + state FIPS + this. */
  countyFips: string;
  /**
   * Hazard regimes of this zone. When absent, the zone has all of its state's
   * regimes except 'coastal' (coastal hazards need a zone marked coastal).
   */
  hazards?: readonly HazardRegime[];
}

export interface NwsOffice {
  /** Three-letter WFO id, e.g. "LOX" (as in AWIPS ids: "NPWLOX"). */
  id: string;
  /** Four-letter ICAO id used in WMO headers and VTEC, e.g. "KLOX". */
  icao: string;
  /** senderName is "NWS <name>", e.g. "NWS Los Angeles/Oxnard CA". */
  name: string;
  /** City used in text ("The National Weather Service in <city> has issued..."). */
  city: string;
  timeZone: TimeZoneInfo;
  /** Counties / zones of the state that this office serves. */
  areas: readonly AlertArea[];
}

export interface UsState {
  /** Two-letter USPS code. */
  code: string;
  name: string;
  /** Two-digit state FIPS code. */
  fips: string;
  /** Approximate [latitude, longitude] of the state's populated interior (storm positions). */
  center: readonly [number, number];
  hazards: readonly HazardRegime[];
  offices: readonly NwsOffice[];
}

const EDT: TimeZoneInfo = { abbr: 'EDT', offset: '-04:00' };
const CDT: TimeZoneInfo = { abbr: 'CDT', offset: '-05:00' };
const MDT: TimeZoneInfo = { abbr: 'MDT', offset: '-06:00' };
const MST: TimeZoneInfo = { abbr: 'MST', offset: '-07:00' };
const PDT: TimeZoneInfo = { abbr: 'PDT', offset: '-07:00' };
const AKDT: TimeZoneInfo = { abbr: 'AKDT', offset: '-08:00' };
const HST: TimeZoneInfo = { abbr: 'HST', offset: '-10:00' };
const AST: TimeZoneInfo = { abbr: 'AST', offset: '-04:00' };

export const US_STATES: readonly UsState[] = [
  {
    code: 'AL',
    name: 'Alabama',
    fips: '01',
    center: [32.8, -86.8],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
    offices: [
      {
        id: 'BMX',
        icao: 'KBMX',
        name: 'Birmingham AL',
        city: 'Birmingham',
        timeZone: CDT,
        areas: [
          { zoneName: 'Jefferson', zone: 24, county: 'Jefferson', countyFips: '073' },
          { zoneName: 'Montgomery', zone: 42, county: 'Montgomery', countyFips: '101' },
        ],
      },
      {
        id: 'MOB',
        icao: 'KMOB',
        name: 'Mobile AL',
        city: 'Mobile',
        timeZone: CDT,
        areas: [
          {
            zoneName: 'Mobile Coastal',
            zone: 265,
            county: 'Mobile',
            countyFips: '097',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
          },
          {
            zoneName: 'Baldwin Coastal',
            zone: 266,
            county: 'Baldwin',
            countyFips: '003',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
          },
        ],
      },
    ],
  },
  {
    code: 'AK',
    name: 'Alaska',
    fips: '02',
    center: [61.2, -149.9],
    hazards: ['flood', 'winter', 'wind', 'coastal', 'fog', 'fire'],
    offices: [
      {
        id: 'AFC',
        icao: 'PAFC',
        name: 'Anchorage AK',
        city: 'Anchorage',
        timeZone: AKDT,
        areas: [
          {
            zoneName: 'Anchorage',
            zone: 711,
            county: 'Anchorage',
            countyFips: '020',
            hazards: ['flood', 'winter', 'wind', 'coastal', 'fog', 'fire'],
          },
          { zoneName: 'Skilak Lake', zone: 724, county: 'Kenai Peninsula', countyFips: '122' },
          { zoneName: 'Interior Kenai Peninsula', zone: 726, county: 'Kenai Peninsula', countyFips: '122' },
          { zoneName: 'Matanuska Valley', zone: 715, county: 'Matanuska-Susitna', countyFips: '170' },
        ],
      },
      {
        id: 'AJK',
        icao: 'PAJK',
        name: 'Juneau AK',
        city: 'Juneau',
        timeZone: AKDT,
        areas: [
          {
            zoneName: 'Municipality of Skagway',
            zone: 318,
            county: 'Skagway',
            countyFips: '230',
            hazards: ['flood', 'winter', 'wind', 'coastal', 'fog', 'fire'],
          },
          {
            zoneName: 'City and Borough of Juneau',
            zone: 325,
            county: 'Juneau',
            countyFips: '110',
            hazards: ['flood', 'winter', 'wind', 'coastal', 'fog', 'fire'],
          },
        ],
      },
      {
        id: 'AFG',
        icao: 'PAFG',
        name: 'Fairbanks AK',
        city: 'Fairbanks',
        timeZone: AKDT,
        areas: [{ zoneName: 'Fairbanks Metro Area', zone: 844, county: 'Fairbanks North Star', countyFips: '090' }],
      },
    ],
  },
  {
    code: 'AZ',
    name: 'Arizona',
    fips: '04',
    center: [33.7, -111.9],
    hazards: ['flood', 'heat', 'fire', 'wind', 'dust', 'air', 'severe'],
    offices: [
      {
        id: 'PSR',
        icao: 'KPSR',
        name: 'Phoenix AZ',
        city: 'Phoenix',
        timeZone: MST,
        areas: [
          { zoneName: 'Central Phoenix', zone: 544, county: 'Maricopa', countyFips: '013' },
          { zoneName: 'Southeast Valley/Queen Creek', zone: 546, county: 'Maricopa', countyFips: '013' },
        ],
      },
      {
        id: 'TWC',
        icao: 'KTWC',
        name: 'Tucson AZ',
        city: 'Tucson',
        timeZone: MST,
        areas: [{ zoneName: 'Tucson Metro Area', zone: 504, county: 'Pima', countyFips: '019' }],
      },
      {
        id: 'FGZ',
        icao: 'KFGZ',
        name: 'Flagstaff AZ',
        city: 'Flagstaff',
        timeZone: MST,
        areas: [
          { zoneName: 'Coconino Plateau', zone: 15, county: 'Coconino', countyFips: '005' },
          { zoneName: 'Yavapai County Mountains', zone: 16, county: 'Yavapai', countyFips: '025' },
        ],
      },
    ],
  },
  {
    code: 'AR',
    name: 'Arkansas',
    fips: '05',
    center: [34.9, -92.4],
    hazards: ['flood', 'severe', 'heat', 'winter', 'fog'],
    offices: [
      {
        id: 'LZK',
        icao: 'KLZK',
        name: 'Little Rock AR',
        city: 'Little Rock',
        timeZone: CDT,
        areas: [
          { zoneName: 'Pulaski', zone: 44, county: 'Pulaski', countyFips: '119' },
          { zoneName: 'Saline', zone: 57, county: 'Saline', countyFips: '125' },
          { zoneName: 'Faulkner', zone: 37, county: 'Faulkner', countyFips: '045' },
        ],
      },
      {
        id: 'TSA',
        icao: 'KTSA',
        name: 'Tulsa OK',
        city: 'Tulsa',
        timeZone: CDT,
        areas: [
          { zoneName: 'Benton', zone: 1, county: 'Benton', countyFips: '007' },
          { zoneName: 'Washington', zone: 10, county: 'Washington', countyFips: '143' },
        ],
      },
    ],
  },
  {
    code: 'CA',
    name: 'California',
    fips: '06',
    center: [36.8, -119.4],
    hazards: ['flood', 'heat', 'fire', 'wind', 'winter', 'coastal', 'fog', 'air', 'dust'],
    offices: [
      {
        id: 'LOX',
        icao: 'KLOX',
        name: 'Los Angeles/Oxnard CA',
        city: 'Los Angeles',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'Los Angeles County Coast including Downtown Los Angeles',
            zone: 368,
            county: 'Los Angeles',
            countyFips: '037',
            hazards: ['coastal', 'heat', 'fire', 'wind', 'fog', 'air', 'flood'],
          },
          {
            zoneName: 'Santa Monica Mountains Recreational Area',
            zone: 369,
            county: 'Los Angeles',
            countyFips: '037',
            hazards: ['fire', 'wind', 'heat', 'flood'],
          },
          {
            zoneName: 'Los Angeles County San Fernando Valley',
            zone: 373,
            county: 'Los Angeles',
            countyFips: '037',
            hazards: ['fire', 'wind', 'heat', 'air', 'flood'],
          },
          {
            zoneName: 'Ventura County Interior Valleys',
            zone: 355,
            county: 'Ventura',
            countyFips: '111',
            hazards: ['fire', 'wind', 'heat', 'flood'],
          },
        ],
      },
      {
        id: 'SGX',
        icao: 'KSGX',
        name: 'San Diego CA',
        city: 'San Diego',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'San Diego County Coastal Areas',
            zone: 43,
            county: 'San Diego',
            countyFips: '073',
            hazards: ['coastal', 'fog', 'heat', 'flood'],
          },
          {
            zoneName: 'Orange County Inland',
            zone: 48,
            county: 'Orange',
            countyFips: '059',
            hazards: ['fire', 'wind', 'heat', 'air'],
          },
          {
            zoneName: 'Riverside County Mountains',
            zone: 58,
            county: 'Riverside',
            countyFips: '065',
            hazards: ['winter', 'fire', 'wind', 'flood'],
          },
          {
            zoneName: 'San Bernardino County Mountains',
            zone: 55,
            county: 'San Bernardino',
            countyFips: '071',
            hazards: ['winter', 'fire', 'wind', 'flood'],
          },
        ],
      },
      {
        id: 'MTR',
        icao: 'KMTR',
        name: 'San Francisco CA',
        city: 'San Francisco',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'San Francisco',
            zone: 502,
            county: 'San Francisco',
            countyFips: '075',
            hazards: ['coastal', 'fog', 'wind', 'air', 'flood'],
          },
          {
            zoneName: 'East Bay Hills',
            zone: 510,
            county: 'Alameda',
            countyFips: '001',
            hazards: ['fire', 'wind', 'flood'],
          },
          {
            zoneName: 'Santa Clara Valley Including San Jose',
            zone: 513,
            county: 'Santa Clara',
            countyFips: '085',
            hazards: ['heat', 'air', 'flood', 'fire'],
          },
        ],
      },
      {
        id: 'STO',
        icao: 'KSTO',
        name: 'Sacramento CA',
        city: 'Sacramento',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'Southern Sacramento Valley',
            zone: 17,
            county: 'Sacramento',
            countyFips: '067',
            hazards: ['heat', 'fog', 'air', 'flood', 'fire', 'wind'],
          },
          {
            zoneName: 'West Slope Northern Sierra Nevada',
            zone: 69,
            county: 'Placer',
            countyFips: '061',
            hazards: ['winter', 'fire', 'flood', 'wind'],
          },
        ],
      },
      {
        id: 'HNX',
        icao: 'KHNX',
        name: 'Hanford CA',
        city: 'Hanford',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'Fresno-Clovis',
            zone: 308,
            county: 'Fresno',
            countyFips: '019',
            hazards: ['heat', 'fog', 'air', 'flood', 'dust'],
          },
          {
            zoneName: 'Bakersfield',
            zone: 317,
            county: 'Kern',
            countyFips: '029',
            hazards: ['heat', 'fog', 'air', 'dust', 'flood'],
          },
        ],
      },
      {
        id: 'EKA',
        icao: 'KEKA',
        name: 'Eureka CA',
        city: 'Eureka',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'Coastal Del Norte',
            zone: 101,
            county: 'Del Norte',
            countyFips: '015',
            hazards: ['coastal', 'flood', 'wind'],
          },
          {
            zoneName: 'Northern Humboldt Coast',
            zone: 103,
            county: 'Humboldt',
            countyFips: '023',
            hazards: ['coastal', 'flood', 'wind', 'fog'],
          },
        ],
      },
    ],
  },
  {
    code: 'CO',
    name: 'Colorado',
    fips: '08',
    center: [39.1, -105.4],
    hazards: ['flood', 'severe', 'winter', 'fire', 'wind', 'air'],
    offices: [
      {
        id: 'BOU',
        icao: 'KBOU',
        name: 'Denver CO',
        city: 'Denver',
        timeZone: MDT,
        areas: [
          { zoneName: 'City and County of Denver', zone: 40, county: 'Denver', countyFips: '031' },
          {
            zoneName: 'Boulder And Jefferson Counties Below 6000 Feet',
            zone: 39,
            county: 'Boulder',
            countyFips: '013',
          },
        ],
      },
      {
        id: 'PUB',
        icao: 'KPUB',
        name: 'Pueblo CO',
        city: 'Pueblo',
        timeZone: MDT,
        areas: [
          {
            zoneName: 'Colorado Springs Vicinity/Southern El Paso County',
            zone: 85,
            county: 'El Paso',
            countyFips: '041',
          },
          { zoneName: 'Pueblo Vicinity/Pueblo County Below 6300 Feet', zone: 86, county: 'Pueblo', countyFips: '101' },
        ],
      },
      {
        id: 'GJT',
        icao: 'KGJT',
        name: 'Grand Junction CO',
        city: 'Grand Junction',
        timeZone: MDT,
        areas: [{ zoneName: 'Grand Valley', zone: 6, county: 'Mesa', countyFips: '077' }],
      },
    ],
  },
  {
    code: 'CT',
    name: 'Connecticut',
    fips: '09',
    center: [41.6, -72.7],
    hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'wind'],
    offices: [
      {
        id: 'OKX',
        icao: 'KOKX',
        name: 'Upton NY',
        city: 'Upton',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Southern Fairfield',
            zone: 9,
            county: 'Fairfield',
            countyFips: '001',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'wind'],
          },
          {
            zoneName: 'Southern New Haven',
            zone: 10,
            county: 'New Haven',
            countyFips: '009',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'wind'],
          },
        ],
      },
      {
        id: 'BOX',
        icao: 'KBOX',
        name: 'Boston/Norton MA',
        city: 'Norton',
        timeZone: EDT,
        areas: [
          { zoneName: 'Hartford', zone: 2, county: 'Hartford', countyFips: '003' },
          { zoneName: 'Tolland', zone: 3, county: 'Tolland', countyFips: '013' },
        ],
      },
    ],
  },
  {
    code: 'DE',
    name: 'Delaware',
    fips: '10',
    center: [39.0, -75.5],
    hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'heat'],
    offices: [
      {
        id: 'PHI',
        icao: 'KPHI',
        name: 'Mount Holly NJ',
        city: 'Mount Holly',
        timeZone: EDT,
        areas: [
          { zoneName: 'New Castle', zone: 1, county: 'New Castle', countyFips: '003' },
          { zoneName: 'Kent', zone: 2, county: 'Kent', countyFips: '001' },
          {
            zoneName: 'Delaware Beaches',
            zone: 4,
            county: 'Sussex',
            countyFips: '005',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'heat'],
          },
        ],
      },
    ],
  },
  {
    code: 'DC',
    name: 'District of Columbia',
    fips: '11',
    center: [38.9, -77.03],
    hazards: ['flood', 'severe', 'winter', 'heat', 'air'],
    offices: [
      {
        id: 'LWX',
        icao: 'KLWX',
        name: 'Baltimore MD/Washington DC',
        city: 'Sterling',
        timeZone: EDT,
        areas: [{ zoneName: 'District of Columbia', zone: 1, county: 'District of Columbia', countyFips: '001' }],
      },
    ],
  },
  {
    code: 'FL',
    name: 'Florida',
    fips: '12',
    center: [28.1, -81.6],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
    offices: [
      {
        id: 'MFL',
        icao: 'KMFL',
        name: 'Miami FL',
        city: 'Miami',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Coastal Miami-Dade County',
            zone: 173,
            county: 'Miami-Dade',
            countyFips: '086',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
          },
          { zoneName: 'Metro Broward County', zone: 172, county: 'Broward', countyFips: '011' },
        ],
      },
      {
        id: 'TBW',
        icao: 'KTBW',
        name: 'Tampa Bay Ruskin FL',
        city: 'Ruskin',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Coastal Hillsborough',
            zone: 151,
            county: 'Hillsborough',
            countyFips: '057',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
          },
          {
            zoneName: 'Pinellas',
            zone: 50,
            county: 'Pinellas',
            countyFips: '103',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
          },
        ],
      },
      {
        id: 'MLB',
        icao: 'KMLB',
        name: 'Melbourne FL',
        city: 'Melbourne',
        timeZone: EDT,
        areas: [
          { zoneName: 'Orange', zone: 45, county: 'Orange', countyFips: '095' },
          {
            zoneName: 'Mainland Northern Brevard',
            zone: 247,
            county: 'Brevard',
            countyFips: '009',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
          },
        ],
      },
      {
        id: 'JAX',
        icao: 'KJAX',
        name: 'Jacksonville FL',
        city: 'Jacksonville',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Coastal Duval',
            zone: 125,
            county: 'Duval',
            countyFips: '031',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog', 'fire'],
          },
        ],
      },
      {
        id: 'TAE',
        icao: 'KTAE',
        name: 'Tallahassee FL',
        city: 'Tallahassee',
        timeZone: EDT,
        areas: [{ zoneName: 'Leon', zone: 18, county: 'Leon', countyFips: '073' }],
      },
    ],
  },
  {
    code: 'GA',
    name: 'Georgia',
    fips: '13',
    center: [33.0, -83.6],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'air', 'fog'],
    offices: [
      {
        id: 'FFC',
        icao: 'KFFC',
        name: 'Peachtree City GA',
        city: 'Peachtree City',
        timeZone: EDT,
        areas: [
          { zoneName: 'Fulton', zone: 33, county: 'Fulton', countyFips: '121' },
          { zoneName: 'DeKalb', zone: 34, county: 'DeKalb', countyFips: '089' },
          { zoneName: 'Cobb', zone: 32, county: 'Cobb', countyFips: '067' },
        ],
      },
      {
        id: 'CHS',
        icao: 'KCHS',
        name: 'Charleston SC',
        city: 'Charleston',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Coastal Chatham',
            zone: 117,
            county: 'Chatham',
            countyFips: '051',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'air', 'fog'],
          },
        ],
      },
    ],
  },
  {
    code: 'HI',
    name: 'Hawaii',
    fips: '15',
    center: [21.3, -157.8],
    hazards: ['flood', 'wind', 'coastal', 'tropical', 'winter'],
    offices: [
      {
        id: 'HFO',
        icao: 'PHFO',
        name: 'Honolulu HI',
        city: 'Honolulu',
        timeZone: HST,
        areas: [
          {
            zoneName: 'Oahu South Shore',
            zone: 6,
            county: 'Honolulu',
            countyFips: '003',
            hazards: ['flood', 'wind', 'coastal', 'tropical', 'winter'],
          },
          { zoneName: 'Big Island Summits', zone: 28, county: 'Hawaii', countyFips: '001' },
          {
            zoneName: 'Maui Windward West',
            zone: 16,
            county: 'Maui',
            countyFips: '009',
            hazards: ['flood', 'wind', 'coastal', 'tropical', 'winter'],
          },
          {
            zoneName: 'Kauai Windward',
            zone: 1,
            county: 'Kauai',
            countyFips: '007',
            hazards: ['flood', 'wind', 'coastal', 'tropical', 'winter'],
          },
        ],
      },
    ],
  },
  {
    code: 'ID',
    name: 'Idaho',
    fips: '16',
    center: [43.6, -116.2],
    hazards: ['flood', 'winter', 'fire', 'wind', 'air'],
    offices: [
      {
        id: 'BOI',
        icao: 'KBOI',
        name: 'Boise ID',
        city: 'Boise',
        timeZone: MDT,
        areas: [
          { zoneName: 'Treasure Valley', zone: 12, county: 'Ada', countyFips: '001' },
          { zoneName: 'Lower Treasure Valley', zone: 14, county: 'Canyon', countyFips: '027' },
        ],
      },
      {
        id: 'PIH',
        icao: 'KPIH',
        name: 'Pocatello ID',
        city: 'Pocatello',
        timeZone: MDT,
        areas: [{ zoneName: 'Upper Snake River Plain', zone: 53, county: 'Bonneville', countyFips: '019' }],
      },
    ],
  },
  {
    code: 'IL',
    name: 'Illinois',
    fips: '17',
    center: [40.3, -89.0],
    hazards: ['flood', 'severe', 'winter', 'heat', 'wind', 'fog'],
    offices: [
      {
        id: 'LOT',
        icao: 'KLOT',
        name: 'Chicago IL',
        city: 'Chicago',
        timeZone: CDT,
        areas: [
          { zoneName: 'Central Cook', zone: 104, county: 'Cook', countyFips: '031' },
          { zoneName: 'DuPage', zone: 13, county: 'DuPage', countyFips: '043' },
        ],
      },
      {
        id: 'ILX',
        icao: 'KILX',
        name: 'Lincoln IL',
        city: 'Lincoln',
        timeZone: CDT,
        areas: [
          { zoneName: 'Sangamon', zone: 51, county: 'Sangamon', countyFips: '167' },
          { zoneName: 'Champaign', zone: 44, county: 'Champaign', countyFips: '019' },
        ],
      },
    ],
  },
  {
    code: 'IN',
    name: 'Indiana',
    fips: '18',
    center: [39.8, -86.3],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fog', 'lake'],
    offices: [
      {
        id: 'IND',
        icao: 'KIND',
        name: 'Indianapolis IN',
        city: 'Indianapolis',
        timeZone: EDT,
        areas: [
          { zoneName: 'Marion', zone: 46, county: 'Marion', countyFips: '097' },
          { zoneName: 'Hamilton', zone: 38, county: 'Hamilton', countyFips: '057' },
        ],
      },
      {
        id: 'IWX',
        icao: 'KIWX',
        name: 'Northern Indiana',
        city: 'Syracuse',
        timeZone: EDT,
        areas: [
          { zoneName: 'Allen', zone: 18, county: 'Allen', countyFips: '003' },
          { zoneName: 'St. Joseph', zone: 4, county: 'St. Joseph', countyFips: '141' },
        ],
      },
    ],
  },
  {
    code: 'IA',
    name: 'Iowa',
    fips: '19',
    center: [42.0, -93.2],
    hazards: ['flood', 'severe', 'winter', 'heat', 'wind', 'fog'],
    offices: [
      {
        id: 'DMX',
        icao: 'KDMX',
        name: 'Des Moines IA',
        city: 'Des Moines',
        timeZone: CDT,
        areas: [
          { zoneName: 'Polk', zone: 60, county: 'Polk', countyFips: '153' },
          { zoneName: 'Story', zone: 48, county: 'Story', countyFips: '169' },
        ],
      },
      {
        id: 'DVN',
        icao: 'KDVN',
        name: 'Quad Cities IA IL',
        city: 'Davenport',
        timeZone: CDT,
        areas: [
          { zoneName: 'Scott', zone: 68, county: 'Scott', countyFips: '163' },
          { zoneName: 'Linn', zone: 52, county: 'Linn', countyFips: '113' },
        ],
      },
    ],
  },
  {
    code: 'KS',
    name: 'Kansas',
    fips: '20',
    center: [38.5, -98.0],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fire', 'wind'],
    offices: [
      {
        id: 'TOP',
        icao: 'KTOP',
        name: 'Topeka KS',
        city: 'Topeka',
        timeZone: CDT,
        areas: [
          { zoneName: 'Shawnee', zone: 39, county: 'Shawnee', countyFips: '177' },
          { zoneName: 'Riley', zone: 36, county: 'Riley', countyFips: '161' },
        ],
      },
      {
        id: 'ICT',
        icao: 'KICT',
        name: 'Wichita KS',
        city: 'Wichita',
        timeZone: CDT,
        areas: [
          { zoneName: 'Sedgwick', zone: 83, county: 'Sedgwick', countyFips: '173' },
          { zoneName: 'Reno', zone: 67, county: 'Reno', countyFips: '155' },
        ],
      },
    ],
  },
  {
    code: 'KY',
    name: 'Kentucky',
    fips: '21',
    center: [37.7, -84.9],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fog'],
    offices: [
      {
        id: 'LMK',
        icao: 'KLMK',
        name: 'Louisville KY',
        city: 'Louisville',
        timeZone: EDT,
        areas: [
          { zoneName: 'Jefferson', zone: 30, county: 'Jefferson', countyFips: '111' },
          { zoneName: 'Fayette', zone: 48, county: 'Fayette', countyFips: '067' },
        ],
      },
      {
        id: 'JKL',
        icao: 'KJKL',
        name: 'Jackson KY',
        city: 'Jackson',
        timeZone: EDT,
        areas: [{ zoneName: 'Perry', zone: 114, county: 'Perry', countyFips: '193' }],
      },
      {
        id: 'PAH',
        icao: 'KPAH',
        name: 'Paducah KY',
        city: 'Paducah',
        timeZone: CDT,
        areas: [{ zoneName: 'McCracken', zone: 7, county: 'McCracken', countyFips: '145' }],
      },
    ],
  },
  {
    code: 'LA',
    name: 'Louisiana',
    fips: '22',
    center: [31.0, -92.0],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
    offices: [
      {
        id: 'LIX',
        icao: 'KLIX',
        name: 'New Orleans LA',
        city: 'New Orleans',
        timeZone: CDT,
        areas: [
          { zoneName: 'Orleans', zone: 60, county: 'Orleans', countyFips: '071' },
          {
            zoneName: 'Southern Jefferson',
            zone: 67,
            county: 'Jefferson',
            countyFips: '051',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
          },
          { zoneName: 'East Baton Rouge', zone: 36, county: 'East Baton Rouge', countyFips: '033' },
        ],
      },
      {
        id: 'LCH',
        icao: 'KLCH',
        name: 'Lake Charles LA',
        city: 'Lake Charles',
        timeZone: CDT,
        areas: [
          {
            zoneName: 'Calcasieu',
            zone: 41,
            county: 'Calcasieu',
            countyFips: '019',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
          },
        ],
      },
      {
        id: 'SHV',
        icao: 'KSHV',
        name: 'Shreveport LA',
        city: 'Shreveport',
        timeZone: CDT,
        areas: [{ zoneName: 'Caddo', zone: 1, county: 'Caddo', countyFips: '017' }],
      },
    ],
  },
  {
    code: 'ME',
    name: 'Maine',
    fips: '23',
    center: [44.7, -69.4],
    hazards: ['flood', 'winter', 'coastal', 'wind', 'fog'],
    offices: [
      {
        id: 'GYX',
        icao: 'KGYX',
        name: 'Gray ME',
        city: 'Gray',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Coastal Cumberland',
            zone: 24,
            county: 'Cumberland',
            countyFips: '005',
            hazards: ['flood', 'winter', 'coastal', 'wind', 'fog'],
          },
          { zoneName: 'Southern Oxford', zone: 12, county: 'Oxford', countyFips: '017' },
        ],
      },
      {
        id: 'CAR',
        icao: 'KCAR',
        name: 'Caribou ME',
        city: 'Caribou',
        timeZone: EDT,
        areas: [
          { zoneName: 'Central Penobscot', zone: 15, county: 'Penobscot', countyFips: '019' },
          { zoneName: 'Northern Aroostook', zone: 2, county: 'Aroostook', countyFips: '003' },
        ],
      },
    ],
  },
  {
    code: 'MD',
    name: 'Maryland',
    fips: '24',
    center: [39.0, -76.8],
    hazards: ['flood', 'severe', 'winter', 'heat', 'coastal', 'air'],
    offices: [
      {
        id: 'LWX',
        icao: 'KLWX',
        name: 'Baltimore MD/Washington DC',
        city: 'Sterling',
        timeZone: EDT,
        areas: [
          { zoneName: 'Southern Baltimore', zone: 11, county: 'Baltimore', countyFips: '005' },
          { zoneName: 'Central and Southeast Montgomery', zone: 504, county: 'Montgomery', countyFips: '031' },
          {
            zoneName: 'Anne Arundel',
            zone: 14,
            county: 'Anne Arundel',
            countyFips: '003',
            hazards: ['flood', 'severe', 'winter', 'heat', 'coastal', 'air'],
          },
        ],
      },
      {
        id: 'AKQ',
        icao: 'KAKQ',
        name: 'Wakefield VA',
        city: 'Wakefield',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Maryland Beaches',
            zone: 25,
            county: 'Worcester',
            countyFips: '047',
            hazards: ['flood', 'severe', 'winter', 'heat', 'coastal', 'air'],
          },
        ],
      },
    ],
  },
  {
    code: 'MA',
    name: 'Massachusetts',
    fips: '25',
    center: [42.3, -71.8],
    hazards: ['flood', 'severe', 'winter', 'coastal', 'wind', 'tropical'],
    offices: [
      {
        id: 'BOX',
        icao: 'KBOX',
        name: 'Boston/Norton MA',
        city: 'Norton',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Suffolk',
            zone: 15,
            county: 'Suffolk',
            countyFips: '025',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'wind', 'tropical'],
          },
          { zoneName: 'Eastern Middlesex', zone: 14, county: 'Middlesex', countyFips: '017' },
          { zoneName: 'Southern Worcester', zone: 11, county: 'Worcester', countyFips: '027' },
          {
            zoneName: 'Barnstable',
            zone: 22,
            county: 'Barnstable',
            countyFips: '001',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'wind', 'tropical'],
          },
        ],
      },
    ],
  },
  {
    code: 'MI',
    name: 'Michigan',
    fips: '26',
    center: [43.3, -84.5],
    hazards: ['flood', 'severe', 'winter', 'lake', 'wind', 'fog'],
    offices: [
      {
        id: 'DTX',
        icao: 'KDTX',
        name: 'Detroit/Pontiac MI',
        city: 'White Lake',
        timeZone: EDT,
        areas: [
          { zoneName: 'Wayne', zone: 75, county: 'Wayne', countyFips: '163' },
          { zoneName: 'Oakland', zone: 69, county: 'Oakland', countyFips: '125' },
        ],
      },
      {
        id: 'GRR',
        icao: 'KGRR',
        name: 'Grand Rapids MI',
        city: 'Grand Rapids',
        timeZone: EDT,
        areas: [
          { zoneName: 'Kent', zone: 57, county: 'Kent', countyFips: '081' },
          { zoneName: 'Ottawa', zone: 56, county: 'Ottawa', countyFips: '139' },
        ],
      },
      {
        id: 'MQT',
        icao: 'KMQT',
        name: 'Marquette MI',
        city: 'Marquette',
        timeZone: EDT,
        areas: [{ zoneName: 'Marquette', zone: 5, county: 'Marquette', countyFips: '103' }],
      },
    ],
  },
  {
    code: 'MN',
    name: 'Minnesota',
    fips: '27',
    center: [45.7, -93.9],
    hazards: ['flood', 'severe', 'winter', 'wind', 'fire'],
    offices: [
      {
        id: 'MPX',
        icao: 'KMPX',
        name: 'Twin Cities/Chanhassen MN',
        city: 'Chanhassen',
        timeZone: CDT,
        areas: [
          { zoneName: 'Hennepin', zone: 60, county: 'Hennepin', countyFips: '053' },
          { zoneName: 'Ramsey', zone: 61, county: 'Ramsey', countyFips: '123' },
        ],
      },
      {
        id: 'DLH',
        icao: 'KDLH',
        name: 'Duluth MN',
        city: 'Duluth',
        timeZone: CDT,
        areas: [{ zoneName: 'Southern St. Louis/Carlton', zone: 37, county: 'St. Louis', countyFips: '137' }],
      },
    ],
  },
  {
    code: 'MS',
    name: 'Mississippi',
    fips: '28',
    center: [32.7, -89.7],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
    offices: [
      {
        id: 'JAN',
        icao: 'KJAN',
        name: 'Jackson MS',
        city: 'Jackson',
        timeZone: CDT,
        areas: [
          { zoneName: 'Hinds', zone: 49, county: 'Hinds', countyFips: '049' },
          { zoneName: 'Rankin', zone: 50, county: 'Rankin', countyFips: '121' },
        ],
      },
      {
        id: 'LIX',
        icao: 'KLIX',
        name: 'New Orleans LA',
        city: 'New Orleans',
        timeZone: CDT,
        areas: [
          {
            zoneName: 'Harrison',
            zone: 86,
            county: 'Harrison',
            countyFips: '047',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fog'],
          },
        ],
      },
      {
        id: 'MEG',
        icao: 'KMEG',
        name: 'Memphis TN',
        city: 'Memphis',
        timeZone: CDT,
        areas: [{ zoneName: 'DeSoto', zone: 1, county: 'DeSoto', countyFips: '033' }],
      },
    ],
  },
  {
    code: 'MO',
    name: 'Missouri',
    fips: '29',
    center: [38.5, -92.3],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fog'],
    offices: [
      {
        id: 'LSX',
        icao: 'KLSX',
        name: 'St Louis MO',
        city: 'St. Louis',
        timeZone: CDT,
        areas: [
          { zoneName: 'St. Louis', zone: 64, county: 'St. Louis', countyFips: '189' },
          { zoneName: 'St. Charles', zone: 63, county: 'St. Charles', countyFips: '183' },
        ],
      },
      {
        id: 'EAX',
        icao: 'KEAX',
        name: 'Kansas City/Pleasant Hill MO',
        city: 'Pleasant Hill',
        timeZone: CDT,
        areas: [{ zoneName: 'Jackson', zone: 37, county: 'Jackson', countyFips: '095' }],
      },
      {
        id: 'SGF',
        icao: 'KSGF',
        name: 'Springfield MO',
        city: 'Springfield',
        timeZone: CDT,
        areas: [{ zoneName: 'Greene', zone: 77, county: 'Greene', countyFips: '077' }],
      },
    ],
  },
  {
    code: 'MT',
    name: 'Montana',
    fips: '30',
    center: [46.9, -110.4],
    hazards: ['flood', 'winter', 'fire', 'wind', 'air', 'severe'],
    offices: [
      {
        id: 'TFX',
        icao: 'KTFX',
        name: 'Great Falls MT',
        city: 'Great Falls',
        timeZone: MDT,
        areas: [{ zoneName: 'Cascade County below 5000ft', zone: 312, county: 'Cascade', countyFips: '013' }],
      },
      {
        id: 'MSO',
        icao: 'KMSO',
        name: 'Missoula MT',
        city: 'Missoula',
        timeZone: MDT,
        areas: [{ zoneName: 'Missoula/Bitterroot Valleys', zone: 6, county: 'Missoula', countyFips: '063' }],
      },
      {
        id: 'BYZ',
        icao: 'KBYZ',
        name: 'Billings MT',
        city: 'Billings',
        timeZone: MDT,
        areas: [
          { zoneName: 'Southern Big Horn', zone: 171, county: 'Big Horn', countyFips: '003' },
          { zoneName: 'Yellowstone', zone: 172, county: 'Yellowstone', countyFips: '111' },
        ],
      },
    ],
  },
  {
    code: 'NE',
    name: 'Nebraska',
    fips: '31',
    center: [41.1, -98.3],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fire', 'wind'],
    offices: [
      {
        id: 'OAX',
        icao: 'KOAX',
        name: 'Omaha/Valley NE',
        city: 'Valley',
        timeZone: CDT,
        areas: [
          { zoneName: 'Douglas', zone: 52, county: 'Douglas', countyFips: '055' },
          { zoneName: 'Lancaster', zone: 66, county: 'Lancaster', countyFips: '109' },
        ],
      },
      {
        id: 'LBF',
        icao: 'KLBF',
        name: 'North Platte NE',
        city: 'North Platte',
        timeZone: CDT,
        areas: [{ zoneName: 'Lincoln', zone: 57, county: 'Lincoln', countyFips: '111' }],
      },
    ],
  },
  {
    code: 'NV',
    name: 'Nevada',
    fips: '32',
    center: [38.3, -117.1],
    hazards: ['flood', 'heat', 'fire', 'wind', 'winter', 'dust', 'air'],
    offices: [
      {
        id: 'VEF',
        icao: 'KVEF',
        name: 'Las Vegas NV',
        city: 'Las Vegas',
        timeZone: PDT,
        areas: [
          { zoneName: 'Las Vegas Valley', zone: 20, county: 'Clark', countyFips: '003' },
          { zoneName: 'Spring Mountains-Red Rock Canyon', zone: 21, county: 'Clark', countyFips: '003' },
        ],
      },
      {
        id: 'REV',
        icao: 'KREV',
        name: 'Reno NV',
        city: 'Reno',
        timeZone: PDT,
        areas: [
          { zoneName: 'Greater Reno-Carson City-Minden Area', zone: 3, county: 'Washoe', countyFips: '031' },
          { zoneName: 'Greater Lake Tahoe Area', zone: 2, county: 'Douglas', countyFips: '005' },
        ],
      },
    ],
  },
  {
    code: 'NH',
    name: 'New Hampshire',
    fips: '33',
    center: [43.5, -71.6],
    hazards: ['flood', 'winter', 'wind', 'coastal', 'severe'],
    offices: [
      {
        id: 'GYX',
        icao: 'KGYX',
        name: 'Gray ME',
        city: 'Gray',
        timeZone: EDT,
        areas: [
          { zoneName: 'Southern Coos', zone: 3, county: 'Coos', countyFips: '007' },
          { zoneName: 'Merrimack', zone: 8, county: 'Merrimack', countyFips: '013' },
          {
            zoneName: 'Interior Rockingham',
            zone: 13,
            county: 'Rockingham',
            countyFips: '015',
            hazards: ['flood', 'winter', 'wind', 'coastal', 'severe'],
          },
        ],
      },
      {
        id: 'BOX',
        icao: 'KBOX',
        name: 'Boston/Norton MA',
        city: 'Norton',
        timeZone: EDT,
        areas: [{ zoneName: 'Eastern Hillsborough', zone: 12, county: 'Hillsborough', countyFips: '011' }],
      },
    ],
  },
  {
    code: 'NJ',
    name: 'New Jersey',
    fips: '34',
    center: [40.3, -74.5],
    hazards: ['flood', 'severe', 'winter', 'coastal', 'heat', 'tropical', 'air'],
    offices: [
      {
        id: 'OKX',
        icao: 'KOKX',
        name: 'Upton NY',
        city: 'Upton',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Eastern Bergen',
            zone: 104,
            county: 'Bergen',
            countyFips: '003',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'heat', 'tropical', 'air'],
          },
          { zoneName: 'Eastern Essex', zone: 106, county: 'Essex', countyFips: '013' },
        ],
      },
      {
        id: 'PHI',
        icao: 'KPHI',
        name: 'Mount Holly NJ',
        city: 'Mount Holly',
        timeZone: EDT,
        areas: [
          { zoneName: 'Camden', zone: 18, county: 'Camden', countyFips: '007' },
          {
            zoneName: 'Coastal Atlantic',
            zone: 24,
            county: 'Atlantic',
            countyFips: '001',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'heat', 'tropical', 'air'],
          },
        ],
      },
    ],
  },
  {
    code: 'NM',
    name: 'New Mexico',
    fips: '35',
    center: [34.8, -106.2],
    hazards: ['flood', 'fire', 'wind', 'winter', 'dust', 'heat', 'severe'],
    offices: [
      {
        id: 'ABQ',
        icao: 'KABQ',
        name: 'Albuquerque NM',
        city: 'Albuquerque',
        timeZone: MDT,
        areas: [
          { zoneName: 'Albuquerque Metro Area', zone: 219, county: 'Bernalillo', countyFips: '001' },
          { zoneName: 'Santa Fe Metro Area', zone: 215, county: 'Santa Fe', countyFips: '049' },
        ],
      },
      {
        id: 'EPZ',
        icao: 'KEPZ',
        name: 'El Paso Tx/Santa Teresa NM',
        city: 'Santa Teresa',
        timeZone: MDT,
        areas: [
          { zoneName: 'Southern Dona Ana County/Mesilla Valley', zone: 411, county: 'Dona Ana', countyFips: '013' },
        ],
      },
    ],
  },
  {
    code: 'NY',
    name: 'New York',
    fips: '36',
    center: [42.2, -74.9],
    hazards: ['flood', 'severe', 'winter', 'lake', 'coastal', 'heat', 'wind', 'air'],
    offices: [
      {
        id: 'OKX',
        icao: 'KOKX',
        name: 'Upton NY',
        city: 'Upton',
        timeZone: EDT,
        areas: [
          { zoneName: 'New York (Manhattan)', zone: 72, county: 'New York', countyFips: '061' },
          {
            zoneName: 'Kings (Brooklyn)',
            zone: 75,
            county: 'Kings',
            countyFips: '047',
            hazards: ['flood', 'severe', 'winter', 'lake', 'coastal', 'heat', 'wind', 'air'],
          },
          {
            zoneName: 'Southeast Suffolk',
            zone: 81,
            county: 'Suffolk',
            countyFips: '103',
            hazards: ['flood', 'severe', 'winter', 'lake', 'coastal', 'heat', 'wind', 'air'],
          },
        ],
      },
      {
        id: 'BUF',
        icao: 'KBUF',
        name: 'Buffalo NY',
        city: 'Buffalo',
        timeZone: EDT,
        areas: [
          { zoneName: 'Northern Erie', zone: 10, county: 'Erie', countyFips: '029' },
          { zoneName: 'Southern Erie', zone: 85, county: 'Erie', countyFips: '029' },
        ],
      },
      {
        id: 'ALY',
        icao: 'KALY',
        name: 'Albany NY',
        city: 'Albany',
        timeZone: EDT,
        areas: [{ zoneName: 'Eastern Albany', zone: 52, county: 'Albany', countyFips: '001' }],
      },
    ],
  },
  {
    code: 'NC',
    name: 'North Carolina',
    fips: '37',
    center: [35.6, -79.8],
    hazards: ['flood', 'severe', 'tropical', 'coastal', 'winter', 'heat', 'fog'],
    offices: [
      {
        id: 'RAH',
        icao: 'KRAH',
        name: 'Raleigh NC',
        city: 'Raleigh',
        timeZone: EDT,
        areas: [
          { zoneName: 'Wake', zone: 41, county: 'Wake', countyFips: '183' },
          { zoneName: 'Durham', zone: 23, county: 'Durham', countyFips: '063' },
        ],
      },
      {
        id: 'GSP',
        icao: 'KGSP',
        name: 'Greenville-Spartanburg SC',
        city: 'Greer',
        timeZone: EDT,
        areas: [{ zoneName: 'Mecklenburg', zone: 71, county: 'Mecklenburg', countyFips: '119' }],
      },
      {
        id: 'MHX',
        icao: 'KMHX',
        name: 'Newport/Morehead City NC',
        city: 'Newport',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Carteret',
            zone: 196,
            county: 'Carteret',
            countyFips: '031',
            hazards: ['flood', 'severe', 'tropical', 'coastal', 'winter', 'heat', 'fog'],
          },
          {
            zoneName: 'Outer Banks Dare',
            zone: 205,
            county: 'Dare',
            countyFips: '055',
            hazards: ['flood', 'severe', 'tropical', 'coastal', 'winter', 'heat', 'fog'],
          },
        ],
      },
    ],
  },
  {
    code: 'ND',
    name: 'North Dakota',
    fips: '38',
    center: [47.5, -100.0],
    hazards: ['flood', 'winter', 'severe', 'wind', 'fire'],
    offices: [
      {
        id: 'BIS',
        icao: 'KBIS',
        name: 'Bismarck ND',
        city: 'Bismarck',
        timeZone: CDT,
        areas: [
          { zoneName: 'Burleigh', zone: 35, county: 'Burleigh', countyFips: '015' },
          { zoneName: 'Morton', zone: 34, county: 'Morton', countyFips: '059' },
        ],
      },
      {
        id: 'FGF',
        icao: 'KFGF',
        name: 'Grand Forks ND',
        city: 'Grand Forks',
        timeZone: CDT,
        areas: [
          { zoneName: 'Cass', zone: 39, county: 'Cass', countyFips: '017' },
          { zoneName: 'Grand Forks', zone: 30, county: 'Grand Forks', countyFips: '035' },
        ],
      },
    ],
  },
  {
    code: 'OH',
    name: 'Ohio',
    fips: '39',
    center: [40.4, -82.8],
    hazards: ['flood', 'severe', 'winter', 'lake', 'heat', 'fog'],
    offices: [
      {
        id: 'CLE',
        icao: 'KCLE',
        name: 'Cleveland OH',
        city: 'Cleveland',
        timeZone: EDT,
        areas: [
          { zoneName: 'Cuyahoga', zone: 11, county: 'Cuyahoga', countyFips: '035' },
          { zoneName: 'Lake', zone: 12, county: 'Lake', countyFips: '085' },
        ],
      },
      {
        id: 'ILN',
        icao: 'KILN',
        name: 'Wilmington OH',
        city: 'Wilmington',
        timeZone: EDT,
        areas: [
          { zoneName: 'Franklin', zone: 55, county: 'Franklin', countyFips: '049' },
          { zoneName: 'Hamilton', zone: 77, county: 'Hamilton', countyFips: '061' },
        ],
      },
    ],
  },
  {
    code: 'OK',
    name: 'Oklahoma',
    fips: '40',
    center: [35.6, -96.9],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fire', 'wind'],
    offices: [
      {
        id: 'OUN',
        icao: 'KOUN',
        name: 'Norman OK',
        city: 'Norman',
        timeZone: CDT,
        areas: [
          { zoneName: 'Oklahoma', zone: 25, county: 'Oklahoma', countyFips: '109' },
          { zoneName: 'Cleveland', zone: 26, county: 'Cleveland', countyFips: '027' },
          { zoneName: 'Canadian', zone: 24, county: 'Canadian', countyFips: '017' },
        ],
      },
      {
        id: 'TSA',
        icao: 'KTSA',
        name: 'Tulsa OK',
        city: 'Tulsa',
        timeZone: CDT,
        areas: [{ zoneName: 'Tulsa', zone: 60, county: 'Tulsa', countyFips: '143' }],
      },
    ],
  },
  {
    code: 'OR',
    name: 'Oregon',
    fips: '41',
    center: [44.6, -122.1],
    hazards: ['flood', 'winter', 'fire', 'wind', 'coastal', 'air', 'fog'],
    offices: [
      {
        id: 'PQR',
        icao: 'KPQR',
        name: 'Portland OR',
        city: 'Portland',
        timeZone: PDT,
        areas: [
          { zoneName: 'Portland Metro Area', zone: 108, county: 'Multnomah', countyFips: '051' },
          { zoneName: 'Western Columbia River Gorge', zone: 120, county: 'Multnomah', countyFips: '051' },
          { zoneName: 'Central Willamette Valley', zone: 116, county: 'Lane', countyFips: '039' },
        ],
      },
      {
        id: 'MFR',
        icao: 'KMFR',
        name: 'Medford OR',
        city: 'Medford',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'Eastern Curry County and Josephine County',
            zone: 24,
            county: 'Josephine',
            countyFips: '033',
            hazards: ['flood', 'winter', 'fire', 'wind', 'coastal', 'air', 'fog'],
          },
          { zoneName: 'Jackson County', zone: 26, county: 'Jackson', countyFips: '029' },
        ],
      },
    ],
  },
  {
    code: 'PA',
    name: 'Pennsylvania',
    fips: '42',
    center: [40.6, -77.2],
    hazards: ['flood', 'severe', 'winter', 'heat', 'lake', 'air'],
    offices: [
      {
        id: 'PHI',
        icao: 'KPHI',
        name: 'Mount Holly NJ',
        city: 'Mount Holly',
        timeZone: EDT,
        areas: [
          { zoneName: 'Philadelphia', zone: 71, county: 'Philadelphia', countyFips: '101' },
          { zoneName: 'Delaware', zone: 70, county: 'Delaware', countyFips: '045' },
        ],
      },
      {
        id: 'CTP',
        icao: 'KCTP',
        name: 'State College PA',
        city: 'State College',
        timeZone: EDT,
        areas: [
          { zoneName: 'Centre', zone: 19, county: 'Centre', countyFips: '027' },
          { zoneName: 'Dauphin', zone: 56, county: 'Dauphin', countyFips: '043' },
        ],
      },
      {
        id: 'PBZ',
        icao: 'KPBZ',
        name: 'Pittsburgh PA',
        city: 'Pittsburgh',
        timeZone: EDT,
        areas: [{ zoneName: 'Allegheny', zone: 21, county: 'Allegheny', countyFips: '003' }],
      },
    ],
  },
  {
    code: 'RI',
    name: 'Rhode Island',
    fips: '44',
    center: [41.7, -71.5],
    hazards: ['flood', 'winter', 'coastal', 'tropical', 'wind'],
    offices: [
      {
        id: 'BOX',
        icao: 'KBOX',
        name: 'Boston/Norton MA',
        city: 'Norton',
        timeZone: EDT,
        areas: [
          { zoneName: 'Eastern Providence', zone: 2, county: 'Providence', countyFips: '007' },
          { zoneName: 'Eastern Kent', zone: 4, county: 'Kent', countyFips: '003' },
          {
            zoneName: 'Washington',
            zone: 6,
            county: 'Washington',
            countyFips: '009',
            hazards: ['flood', 'winter', 'coastal', 'tropical', 'wind'],
          },
        ],
      },
    ],
  },
  {
    code: 'SC',
    name: 'South Carolina',
    fips: '45',
    center: [33.9, -80.9],
    hazards: ['flood', 'severe', 'tropical', 'coastal', 'heat', 'fog'],
    offices: [
      {
        id: 'CAE',
        icao: 'KCAE',
        name: 'Columbia SC',
        city: 'West Columbia',
        timeZone: EDT,
        areas: [
          { zoneName: 'Richland', zone: 37, county: 'Richland', countyFips: '079' },
          { zoneName: 'Lexington', zone: 35, county: 'Lexington', countyFips: '063' },
        ],
      },
      {
        id: 'CHS',
        icao: 'KCHS',
        name: 'Charleston SC',
        city: 'Charleston',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Charleston',
            zone: 50,
            county: 'Charleston',
            countyFips: '019',
            hazards: ['flood', 'severe', 'tropical', 'coastal', 'heat', 'fog'],
          },
        ],
      },
      {
        id: 'GSP',
        icao: 'KGSP',
        name: 'Greenville-Spartanburg SC',
        city: 'Greer',
        timeZone: EDT,
        areas: [{ zoneName: 'Greater Greenville', zone: 10, county: 'Greenville', countyFips: '045' }],
      },
    ],
  },
  {
    code: 'SD',
    name: 'South Dakota',
    fips: '46',
    center: [44.3, -99.4],
    hazards: ['flood', 'severe', 'winter', 'wind', 'fire'],
    offices: [
      {
        id: 'FSD',
        icao: 'KFSD',
        name: 'Sioux Falls SD',
        city: 'Sioux Falls',
        timeZone: CDT,
        areas: [
          { zoneName: 'Minnehaha', zone: 62, county: 'Minnehaha', countyFips: '099' },
          { zoneName: 'Lincoln', zone: 71, county: 'Lincoln', countyFips: '083' },
        ],
      },
      {
        id: 'UNR',
        icao: 'KUNR',
        name: 'Rapid City SD',
        city: 'Rapid City',
        timeZone: MDT,
        areas: [{ zoneName: 'Rapid City', zone: 26, county: 'Pennington', countyFips: '103' }],
      },
    ],
  },
  {
    code: 'TN',
    name: 'Tennessee',
    fips: '47',
    center: [35.7, -86.7],
    hazards: ['flood', 'severe', 'winter', 'heat', 'fog'],
    offices: [
      {
        id: 'OHX',
        icao: 'KOHX',
        name: 'Nashville TN',
        city: 'Nashville',
        timeZone: CDT,
        areas: [
          { zoneName: 'Davidson', zone: 27, county: 'Davidson', countyFips: '037' },
          { zoneName: 'Rutherford', zone: 62, county: 'Rutherford', countyFips: '149' },
        ],
      },
      {
        id: 'MEG',
        icao: 'KMEG',
        name: 'Memphis TN',
        city: 'Memphis',
        timeZone: CDT,
        areas: [{ zoneName: 'Shelby', zone: 88, county: 'Shelby', countyFips: '157' }],
      },
      {
        id: 'MRX',
        icao: 'KMRX',
        name: 'Morristown TN',
        city: 'Morristown',
        timeZone: EDT,
        areas: [{ zoneName: 'Knox', zone: 36, county: 'Knox', countyFips: '093' }],
      },
    ],
  },
  {
    code: 'TX',
    name: 'Texas',
    fips: '48',
    center: [31.1, -97.6],
    hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fire', 'wind', 'dust', 'fog', 'winter'],
    offices: [
      {
        id: 'HGX',
        icao: 'KHGX',
        name: 'Houston/Galveston TX',
        city: 'League City',
        timeZone: CDT,
        areas: [
          { zoneName: 'Inland Harris', zone: 213, county: 'Harris', countyFips: '201' },
          {
            zoneName: 'Galveston Island and Bolivar Peninsula',
            zone: 438,
            county: 'Galveston',
            countyFips: '167',
            hazards: ['flood', 'severe', 'heat', 'tropical', 'coastal', 'fire', 'wind', 'dust', 'fog', 'winter'],
          },
        ],
      },
      {
        id: 'FWD',
        icao: 'KFWD',
        name: 'Fort Worth TX',
        city: 'Fort Worth',
        timeZone: CDT,
        areas: [
          { zoneName: 'Dallas', zone: 119, county: 'Dallas', countyFips: '113' },
          { zoneName: 'Tarrant', zone: 118, county: 'Tarrant', countyFips: '439' },
        ],
      },
      {
        id: 'EWX',
        icao: 'KEWX',
        name: 'Austin/San Antonio TX',
        city: 'New Braunfels',
        timeZone: CDT,
        areas: [
          { zoneName: 'Travis', zone: 192, county: 'Travis', countyFips: '453' },
          { zoneName: 'Bexar', zone: 205, county: 'Bexar', countyFips: '029' },
        ],
      },
      {
        id: 'MAF',
        icao: 'KMAF',
        name: 'Midland/Odessa TX',
        city: 'Midland',
        timeZone: CDT,
        areas: [
          { zoneName: 'Midland', zone: 52, county: 'Midland', countyFips: '329' },
          { zoneName: 'Ector', zone: 51, county: 'Ector', countyFips: '135' },
        ],
      },
    ],
  },
  {
    code: 'UT',
    name: 'Utah',
    fips: '49',
    center: [40.2, -111.9],
    hazards: ['flood', 'winter', 'fire', 'wind', 'air', 'dust'],
    offices: [
      {
        id: 'SLC',
        icao: 'KSLC',
        name: 'Salt Lake City UT',
        city: 'Salt Lake City',
        timeZone: MDT,
        areas: [
          { zoneName: 'Salt Lake and Tooele Valleys', zone: 105, county: 'Salt Lake', countyFips: '035' },
          { zoneName: 'Utah Valley', zone: 107, county: 'Utah', countyFips: '049' },
          { zoneName: 'Wasatch Front', zone: 104, county: 'Davis', countyFips: '011' },
          { zoneName: 'Wasatch Mountains I-80 North', zone: 110, county: 'Summit', countyFips: '043' },
        ],
      },
    ],
  },
  {
    code: 'VT',
    name: 'Vermont',
    fips: '50',
    center: [44.0, -72.7],
    hazards: ['flood', 'winter', 'wind', 'severe'],
    offices: [
      {
        id: 'BTV',
        icao: 'KBTV',
        name: 'Burlington VT',
        city: 'Burlington',
        timeZone: EDT,
        areas: [
          { zoneName: 'Western Chittenden', zone: 5, county: 'Chittenden', countyFips: '007' },
          { zoneName: 'Washington', zone: 8, county: 'Washington', countyFips: '023' },
          { zoneName: 'Eastern Rutland', zone: 11, county: 'Rutland', countyFips: '021' },
        ],
      },
    ],
  },
  {
    code: 'VA',
    name: 'Virginia',
    fips: '51',
    center: [37.8, -78.2],
    hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'heat', 'fog'],
    offices: [
      {
        id: 'LWX',
        icao: 'KLWX',
        name: 'Baltimore MD/Washington DC',
        city: 'Sterling',
        timeZone: EDT,
        areas: [{ zoneName: 'Fairfax', zone: 53, county: 'Fairfax', countyFips: '059' }],
      },
      {
        id: 'AKQ',
        icao: 'KAKQ',
        name: 'Wakefield VA',
        city: 'Wakefield',
        timeZone: EDT,
        areas: [
          {
            zoneName: 'Virginia Beach',
            zone: 98,
            county: 'Virginia Beach (city)',
            countyFips: '810',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'heat', 'fog'],
          },
          {
            zoneName: 'Norfolk/Portsmouth',
            zone: 95,
            county: 'Norfolk (city)',
            countyFips: '710',
            hazards: ['flood', 'severe', 'winter', 'coastal', 'tropical', 'heat', 'fog'],
          },
        ],
      },
      {
        id: 'RNK',
        icao: 'KRNK',
        name: 'Blacksburg VA',
        city: 'Blacksburg',
        timeZone: EDT,
        areas: [
          { zoneName: 'Montgomery', zone: 34, county: 'Montgomery', countyFips: '121' },
          { zoneName: 'Roanoke', zone: 22, county: 'Roanoke', countyFips: '161' },
        ],
      },
    ],
  },
  {
    code: 'WA',
    name: 'Washington',
    fips: '53',
    center: [47.4, -121.5],
    hazards: ['flood', 'winter', 'wind', 'fire', 'coastal', 'air', 'fog'],
    offices: [
      {
        id: 'SEW',
        icao: 'KSEW',
        name: 'Seattle WA',
        city: 'Seattle',
        timeZone: PDT,
        areas: [
          {
            zoneName: 'City of Seattle',
            zone: 558,
            county: 'King',
            countyFips: '033',
            hazards: ['flood', 'winter', 'wind', 'fire', 'coastal', 'air', 'fog'],
          },
          { zoneName: 'Tacoma Area', zone: 560, county: 'Pierce', countyFips: '053' },
          { zoneName: 'Everett and Vicinity', zone: 555, county: 'Snohomish', countyFips: '061' },
        ],
      },
      {
        id: 'OTX',
        icao: 'KOTX',
        name: 'Spokane WA',
        city: 'Spokane',
        timeZone: PDT,
        areas: [{ zoneName: 'Spokane Area', zone: 36, county: 'Spokane', countyFips: '063' }],
      },
    ],
  },
  {
    code: 'WV',
    name: 'West Virginia',
    fips: '54',
    center: [38.5, -80.9],
    hazards: ['flood', 'severe', 'winter', 'fog'],
    offices: [
      {
        id: 'RLX',
        icao: 'KRLX',
        name: 'Charleston WV',
        city: 'Charleston',
        timeZone: EDT,
        areas: [
          { zoneName: 'Kanawha', zone: 27, county: 'Kanawha', countyFips: '039' },
          { zoneName: 'Cabell', zone: 5, county: 'Cabell', countyFips: '011' },
        ],
      },
      {
        id: 'PBZ',
        icao: 'KPBZ',
        name: 'Pittsburgh PA',
        city: 'Pittsburgh',
        timeZone: EDT,
        areas: [{ zoneName: 'Monongalia', zone: 21, county: 'Monongalia', countyFips: '061' }],
      },
    ],
  },
  {
    code: 'WI',
    name: 'Wisconsin',
    fips: '55',
    center: [44.3, -89.6],
    hazards: ['flood', 'severe', 'winter', 'lake', 'wind', 'fog'],
    offices: [
      {
        id: 'MKX',
        icao: 'KMKX',
        name: 'Milwaukee/Sullivan WI',
        city: 'Sullivan',
        timeZone: CDT,
        areas: [
          { zoneName: 'Milwaukee', zone: 66, county: 'Milwaukee', countyFips: '079' },
          { zoneName: 'Dane', zone: 63, county: 'Dane', countyFips: '025' },
        ],
      },
      {
        id: 'GRB',
        icao: 'KGRB',
        name: 'Green Bay WI',
        city: 'Ashwaubenon',
        timeZone: CDT,
        areas: [{ zoneName: 'Brown', zone: 40, county: 'Brown', countyFips: '009' }],
      },
    ],
  },
  {
    code: 'WY',
    name: 'Wyoming',
    fips: '56',
    center: [42.8, -107.3],
    hazards: ['winter', 'wind', 'fire', 'flood', 'severe'],
    offices: [
      {
        id: 'CYS',
        icao: 'KCYS',
        name: 'Cheyenne WY',
        city: 'Cheyenne',
        timeZone: MDT,
        areas: [
          { zoneName: 'Central Laramie County', zone: 118, county: 'Laramie', countyFips: '021' },
          { zoneName: 'South Laramie Range', zone: 116, county: 'Albany', countyFips: '001' },
        ],
      },
      {
        id: 'RIW',
        icao: 'KRIW',
        name: 'Riverton WY',
        city: 'Riverton',
        timeZone: MDT,
        areas: [
          { zoneName: 'Casper Mountain', zone: 20, county: 'Natrona', countyFips: '025' },
          { zoneName: 'Wind River Basin', zone: 15, county: 'Fremont', countyFips: '013' },
        ],
      },
    ],
  },
  {
    code: 'PR',
    name: 'Puerto Rico',
    fips: '72',
    center: [18.2, -66.5],
    hazards: ['flood', 'heat', 'tropical', 'coastal', 'severe'],
    offices: [
      {
        id: 'SJU',
        icao: 'TJSJ',
        name: 'San Juan PR',
        city: 'San Juan',
        timeZone: AST,
        areas: [
          {
            zoneName: 'San Juan and Vicinity',
            zone: 1,
            county: 'San Juan',
            countyFips: '127',
            hazards: ['flood', 'heat', 'tropical', 'coastal', 'severe'],
          },
          {
            zoneName: 'Ponce and Vicinity',
            zone: 3,
            county: 'Ponce',
            countyFips: '113',
            hazards: ['flood', 'heat', 'tropical', 'coastal', 'severe'],
          },
          {
            zoneName: 'Mayaguez and Vicinity',
            zone: 5,
            county: 'Mayaguez',
            countyFips: '097',
            hazards: ['flood', 'heat', 'tropical', 'coastal', 'severe'],
          },
        ],
      },
    ],
  },
];
