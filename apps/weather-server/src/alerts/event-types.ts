/**
 * Vocabulary of real National Weather Service event types for the synthetic
 * alert generator: the CAP values the NWS API reports with each event
 * (category, severity, certainty, urgency, response), its SAME and NWS event
 * codes, AWIPS product, WMO heading, VTEC phenomenon.significance, and text
 * fragments in the style of the real products.
 *
 * Pure data. Placeholders in text are filled by alert-generator.ts:
 *   {areas} affected area names · {city} office city · {when} validity phrase
 *   {until} end time ("10 PM PDT") · {state} state name · {office} office name
 */
import type { HazardRegime } from './us-states';

/** How the product is laid out (text template and timing). */
export type ProductKind =
  /** Long-fused watch/warning/advisory: "* WHAT... * WHERE... * WHEN... * IMPACTS..." on forecast zones. */
  | 'segmented'
  /** Short-fused storm-based warning (TOR, SVR, FFW) on counties, with storm motion. */
  | 'stormBased'
  /** Convective watch (WCN), county list. */
  | 'convectiveWatch'
  /** Free-text statement (SPS, AQA): no end time. */
  | 'statement'
  /** Hydrologic outlook (ESF): no end time, no instruction. */
  | 'outlook';

/** Which kind of UGC the alert uses: forecast zones, counties or fire weather zones. */
export type UgcKind = 'zone' | 'county' | 'fire';

export interface NwsEventType {
  event: string;
  category: 'Met';
  severity: 'Extreme' | 'Severe' | 'Moderate' | 'Minor' | 'Unknown';
  certainty: 'Observed' | 'Likely' | 'Possible' | 'Unlikely' | 'Unknown';
  urgency: 'Immediate' | 'Expected' | 'Future' | 'Past' | 'Unknown';
  response: 'Shelter' | 'Evacuate' | 'Prepare' | 'Execute' | 'Avoid' | 'Monitor' | 'AllClear' | 'None';
  /** SAME event code ("NWS" when the product does not activate EAS). */
  same: string;
  /** eventCode.NationalWeatherService. */
  nws: string;
  /** AWIPS product category of the initial issuance ("NPW" → AWIPS id "NPWLOX"). */
  awips: string;
  /** AWIPS product category of follow-up statements (messageType "Update"); defaults to `awips`. */
  followUpAwips?: string;
  /** WMO heading: data type designator (T1T2) and the tens digit of ii, e.g. ["WW", 7] → "WWUS7x". */
  wmo: readonly [string, number];
  /** VTEC phenomenon.significance ("HW.W"); absent for products without VTEC. */
  vtec?: string;
  kind: ProductKind;
  ugc: UgcKind;
  hazards: readonly HazardRegime[];
  /** Relative frequency among the event types that apply to a state. */
  weight: number;
  /** Hours from issuance to onset, [min, max] (0 = in effect now). */
  leadHours: readonly [number, number];
  /** Duration from onset to end, [min, max] hours. */
  durationHours: readonly [number, number];
  /** Wireless Emergency Alert (WEA) activating: BLOCKCHANNEL omits CMAS, CMAM texts added. */
  wea?: boolean;
  /** "* WHAT..." texts (segmented) or the lead paragraph (statement / outlook). */
  what: readonly string[];
  /** "* IMPACTS..." texts (segmented) or "IMPACT..." (stormBased). */
  impacts: readonly string[];
  /** Optional "* ADDITIONAL DETAILS..." (segmented) or closing paragraph (statement / outlook). */
  details?: readonly string[];
  /** Precautionary/preparedness actions; null where the product has none. */
  instruction: readonly string[] | null;
  /** NWSheadline variants for statements/outlooks (segmented ones are derived from event and time). */
  nwsHeadlines?: readonly string[];
  /** stormBased: "HAZARD..." and "SOURCE..." lines and the storm description. */
  hazard?: readonly string[];
  source?: readonly string[];
  storm?: readonly string[];
}

const FLOOD_SAFETY =
  'Turn around, don\'t drown when encountering flooded roads. Most flood deaths occur in vehicles.';

export const NWS_EVENT_TYPES: readonly NwsEventType[] = [
  // ---- Convective: storm-based warnings ------------------------------------------------
  {
    event: 'Tornado Warning', category: 'Met', severity: 'Extreme', certainty: 'Observed', urgency: 'Immediate', response: 'Shelter',
    same: 'TOR', nws: 'TOR', awips: 'TOR', followUpAwips: 'SVS', wmo: ['WF', 5], vtec: 'TO.W',
    kind: 'stormBased', ugc: 'county', hazards: ['severe'], weight: 2, leadHours: [0, 0], durationHours: [0.5, 1], wea: true,
    what: [], storm: ['a severe thunderstorm capable of producing a tornado', 'a confirmed tornado'],
    hazard: ['Tornado and quarter size hail', 'Tornado', 'Tornado and ping pong ball size hail'],
    source: ['Radar indicated rotation', 'Weather spotters confirmed tornado', 'Law enforcement confirmed tornado'],
    impacts: [
      'Flying debris will be dangerous to those caught without shelter. Mobile homes will be damaged or destroyed. Damage to roofs, windows, and vehicles will occur. Tree damage is likely.',
      'You are in a life-threatening situation. Flying debris may be deadly to those caught without shelter. Mobile homes will be destroyed. Considerable damage to homes, businesses, and vehicles is likely and complete destruction is possible.',
    ],
    instruction: [
      'TAKE COVER NOW! Move to a basement or an interior room on the lowest floor of a sturdy building. Avoid windows. If you are outdoors, in a mobile home, or in a vehicle, move to the closest substantial shelter and protect yourself from flying debris.',
    ],
  },
  {
    event: 'Severe Thunderstorm Warning', category: 'Met', severity: 'Severe', certainty: 'Observed', urgency: 'Immediate', response: 'Shelter',
    same: 'SVR', nws: 'SVR', awips: 'SVR', followUpAwips: 'SVS', wmo: ['WU', 5], vtec: 'SV.W',
    kind: 'stormBased', ugc: 'county', hazards: ['severe'], weight: 4, leadHours: [0, 0], durationHours: [0.5, 1],
    what: [], storm: ['a severe thunderstorm', 'a line of severe thunderstorms', 'a cluster of severe thunderstorms'],
    hazard: ['60 mph wind gusts and quarter size hail', '70 mph wind gusts and penny size hail', '60 mph wind gusts and half dollar size hail'],
    source: ['Radar indicated', 'Trained weather spotters', 'Public reported'],
    impacts: [
      'Hail damage to vehicles is expected. Expect wind damage to roofs, siding, and trees.',
      'Expect damage to roofs, siding, and trees.',
      'Minor hail damage to vehicles is possible. Expect wind damage to roofs, siding, and trees.',
    ],
    instruction: [
      'For your protection move to an interior room on the lowest floor of a building.',
      'Large hail and damaging winds and continuous cloud to ground lightning is occurring with this storm. Move indoors immediately. Lightning is one of nature\'s leading killers. Remember, if you can hear thunder, you are close enough to be struck by lightning.',
    ],
  },
  {
    event: 'Flash Flood Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Immediate', response: 'Avoid',
    same: 'FFW', nws: 'FFW', awips: 'FFW', followUpAwips: 'FFS', wmo: ['WG', 5], vtec: 'FF.W',
    kind: 'stormBased', ugc: 'county', hazards: ['flood'], weight: 2, leadHours: [0, 0], durationHours: [2, 6], wea: true,
    what: [], storm: ['thunderstorms producing heavy rain', 'heavy rain'],
    hazard: ['Life threatening flash flooding. Thunderstorms producing flash flooding', 'Flash flooding caused by thunderstorms'],
    source: ['Radar indicated. Between 2 and 3 inches of rain have fallen', 'Radar and automated rain gauges', 'Emergency management reported flooding'],
    impacts: [
      'Flash flooding of small creeks and streams, urban areas, highways, streets and underpasses as well as other poor drainage and low-lying areas.',
      'Life threatening flash flooding of low water crossings, small creeks and streams, urban areas, highways, streets and underpasses.',
    ],
    instruction: [
      FLOOD_SAFETY,
      'Move to higher ground now. Act quickly to protect your life. ' + FLOOD_SAFETY,
    ],
  },
  // ---- Convective watches -------------------------------------------------------------
  {
    event: 'Tornado Watch', category: 'Met', severity: 'Extreme', certainty: 'Possible', urgency: 'Future', response: 'Monitor',
    same: 'TOA', nws: 'TOA', awips: 'WCN', wmo: ['WW', 6], vtec: 'TO.A',
    kind: 'convectiveWatch', ugc: 'county', hazards: ['severe'], weight: 1, leadHours: [0, 1], durationHours: [5, 8],
    what: [], impacts: [], instruction: null,
  },
  {
    event: 'Severe Thunderstorm Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Expected', response: 'Monitor',
    same: 'SVA', nws: 'SVA', awips: 'WCN', wmo: ['WW', 6], vtec: 'SV.A',
    kind: 'convectiveWatch', ugc: 'county', hazards: ['severe'], weight: 2, leadHours: [0, 1], durationHours: [5, 8],
    what: [], impacts: [], instruction: null,
  },
  // ---- Hydrology ------------------------------------------------------------------------
  {
    event: 'Flood Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Future', response: 'Prepare',
    same: 'FFA', nws: 'FFA', awips: 'FFA', wmo: ['WG', 6], vtec: 'FF.A',
    kind: 'segmented', ugc: 'zone', hazards: ['flood'], weight: 3, leadHours: [3, 18], durationHours: [12, 36],
    what: [
      'Flash flooding caused by excessive rainfall continues to be possible.',
      'Flooding caused by excessive rainfall is possible.',
      'Flash flooding caused by excessive rainfall is possible. Rainfall totals of 2 to 4 inches with locally higher amounts are expected.',
    ],
    impacts: [
      'Excessive runoff may result in flooding of rivers, creeks, streams, and other low-lying and flood-prone locations.',
      'Extensive street flooding and flooding of creeks and rivers are possible.',
    ],
    details: [
      'Multiple rounds of heavy rain are expected, with the heaviest rain falling over areas with saturated soils.',
      'Burn scars from recent wildfires are especially vulnerable to debris flows.',
    ],
    instruction: [
      'You should monitor later forecasts and be alert for possible Flood Warnings. Those living in areas prone to flooding should be prepared to take action should flooding develop.',
    ],
  },
  {
    event: 'Flood Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'FLW', nws: 'FLW', awips: 'FLW', followUpAwips: 'FLS', wmo: ['WG', 4], vtec: 'FL.W',
    kind: 'segmented', ugc: 'county', hazards: ['flood'], weight: 2, leadHours: [0, 12], durationHours: [18, 72],
    what: [
      'Minor flooding is occurring and minor flooding is forecast.',
      'Moderate flooding is forecast.',
      'Flooding caused by excessive rainfall continues.',
    ],
    impacts: [
      'At 14.0 feet, water begins to cover low-lying pastures and secondary roads near the river.',
      'At 21.0 feet, moderate flooding of agricultural lands and several county roads occurs. Some homes near the river may be affected.',
    ],
    details: [
      'The river is expected to crest near flood stage Thursday morning and fall below flood stage Friday.',
      'Recent Activity...The maximum river stage in the 24 hours ending at 7 AM was 15.2 feet.',
    ],
    instruction: [FLOOD_SAFETY + ' Additional information is available at www.water.noaa.gov.'],
  },
  {
    event: 'Flood Advisory', category: 'Met', severity: 'Minor', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'NWS', nws: 'FAY', awips: 'FLS', wmo: ['WG', 5], vtec: 'FA.Y',
    kind: 'segmented', ugc: 'county', hazards: ['flood'], weight: 3, leadHours: [0, 0], durationHours: [2, 6],
    what: ['Flooding caused by excessive rainfall is expected.', 'Urban and small stream flooding caused by excessive rainfall is expected.'],
    impacts: [
      'Minor flooding in low-lying and poor drainage areas.',
      'Water over roadways. Overflowing poor drainage areas. Ponding of water in urban or other areas is occurring or is imminent.',
    ],
    instruction: [FLOOD_SAFETY],
  },
  {
    event: 'Hydrologic Outlook', category: 'Met', severity: 'Unknown', certainty: 'Possible', urgency: 'Future', response: 'Monitor',
    same: 'NWS', nws: 'ESF', awips: 'ESF', wmo: ['FG', 7],
    kind: 'outlook', ugc: 'zone', hazards: ['flood'], weight: 2, leadHours: [0, 0], durationHours: [12, 36],
    what: [
      'Rainfall over the next several days may cause rises on area rivers and streams. Rivers are currently running near normal levels for mid October.',
      'A slow moving storm system will bring periods of heavy rain to {areas} through the end of the week. Rainfall totals of 2 to 4 inches are possible.',
      'Rain falling on recent burn scars could produce rapid runoff and debris flows in and below the burn areas of {areas}.',
    ],
    impacts: [],
    details: [
      'This statement will be updated daily as more information is available.',
      'Residents living near area rivers should monitor later forecasts and be prepared for rising water levels.',
    ],
    instruction: null,
    nwsHeadlines: ['POTENTIAL FOR RISES ON AREA RIVERS', 'HEAVY RAIN POSSIBLE LATER THIS WEEK', 'DEBRIS FLOW POTENTIAL ON RECENT BURN SCARS'],
  },
  // ---- Winter -----------------------------------------------------------------------------
  {
    event: 'Winter Storm Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'WSW', nws: 'WSW', awips: 'WSW', wmo: ['WW', 3], vtec: 'WS.W',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 2, leadHours: [2, 18], durationHours: [12, 36],
    what: [
      'Heavy snow expected. Total snow accumulations between 8 and 14 inches. Winds gusting as high as 45 mph.',
      'Heavy snow expected above 7000 feet. Total snow accumulations of 10 to 20 inches, with up to 30 inches on the highest peaks.',
      'Heavy mixed precipitation expected. Total snow and sleet accumulations of 4 to 7 inches and ice accumulations of around one tenth of an inch.',
    ],
    impacts: [
      'Travel could be very difficult to impossible. The hazardous conditions could impact the morning or evening commute.',
      'Travel could be very difficult. Patchy blowing snow could significantly reduce visibility. Chain controls are likely over mountain passes.',
    ],
    details: ['Snowfall rates of 1 to 2 inches per hour are possible Wednesday morning.'],
    instruction: [
      'If you must travel, keep an extra flashlight, food, and water in your vehicle in case of an emergency. The latest road conditions for the state you are calling from can be obtained by calling 5 1 1.',
    ],
  },
  {
    event: 'Winter Storm Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Future', response: 'Prepare',
    same: 'WSA', nws: 'WSA', awips: 'WSW', wmo: ['WW', 3], vtec: 'WS.A',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 2, leadHours: [18, 48], durationHours: [12, 36],
    what: [
      'Heavy snow possible. Total snow accumulations of 6 to 12 inches possible.',
      'Heavy snow possible above 6000 feet. Total snow accumulations of 1 to 2 feet possible.',
    ],
    impacts: ['Travel could be very difficult to impossible.', 'Roads, and especially bridges and overpasses, will likely become slick and hazardous.'],
    instruction: [
      'Monitor the latest forecasts for updates on this situation. Consider altering travel plans.',
    ],
  },
  {
    event: 'Winter Weather Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'WWY', awips: 'WSW', wmo: ['WW', 3], vtec: 'WW.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 3, leadHours: [0, 12], durationHours: [6, 24],
    what: [
      'Snow expected. Total snow accumulations of 2 to 5 inches.',
      'Mixed precipitation expected. Total snow accumulations of up to one inch and ice accumulations of a light glaze.',
      'Snow expected above 5000 feet. Total snow accumulations of 3 to 6 inches.',
    ],
    impacts: ['Plan on slippery road conditions. The hazardous conditions could impact the evening commute.'],
    instruction: ['Slow down and use caution while traveling.'],
  },
  {
    event: 'Blizzard Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'BZW', nws: 'BZW', awips: 'WSW', wmo: ['WW', 3], vtec: 'BZ.W',
    kind: 'segmented', ugc: 'zone', hazards: ['winter', 'wind'], weight: 1, leadHours: [0, 12], durationHours: [12, 30],
    what: ['Blizzard conditions expected. Total snow accumulations of 4 to 8 inches. Winds gusting as high as 55 mph.'],
    impacts: [
      'Travel could be very difficult to impossible. Widespread blowing snow could significantly reduce visibility. The strong winds could cause tree damage.',
    ],
    instruction: [
      'Travel should be restricted to emergencies only. If you must travel, have a winter survival kit with you. If you get stranded, stay with your vehicle.',
    ],
  },
  {
    event: 'Ice Storm Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'WSW', nws: 'ISW', awips: 'WSW', wmo: ['WW', 3], vtec: 'IS.W',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 1, leadHours: [2, 18], durationHours: [12, 30],
    what: ['Significant icing expected. Total ice accumulations of one quarter to one half inch.'],
    impacts: [
      'Power outages and tree damage are likely due to the ice. Travel could be nearly impossible.',
    ],
    instruction: ['Travel is strongly discouraged. If you must travel, keep an extra flashlight, food, and water in your vehicle in case of an emergency. Prepare for possible power outages.'],
  },
  {
    event: 'Lake Effect Snow Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'WSW', nws: 'LEW', awips: 'WSW', wmo: ['WW', 3], vtec: 'LE.W',
    kind: 'segmented', ugc: 'zone', hazards: ['lake'], weight: 1, leadHours: [2, 18], durationHours: [18, 42],
    what: [
      'Lake effect snow expected. Total snow accumulations of 1 to 2 feet in the most persistent lake snows. Winds gusting as high as 40 mph.',
    ],
    impacts: ['Travel will be very difficult to impossible. Very poor visibility is expected in heavier lake snows.'],
    details: ['Lake effect snow will be very localized, with snowfall rates of 2 to 3 inches per hour in the most intense bands.'],
    instruction: ['Consider avoiding travel in the lake effect snow. If you must travel, keep an extra flashlight, food, and water in your vehicle in case of an emergency.'],
  },
  {
    event: 'Extreme Cold Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'ECW', nws: 'ECW', awips: 'NPW', wmo: ['WW', 3], vtec: 'EC.W',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 1, leadHours: [6, 24], durationHours: [9, 18],
    what: ['Dangerously cold wind chills as low as 35 below zero expected.', 'Dangerously cold air temperatures as low as 40 below zero expected.'],
    impacts: ['Frostbite and hypothermia will occur if unprotected skin is exposed to these temperatures.'],
    instruction: ['Avoid going outside during the coldest parts of the night and early morning. If you must go outside, dress in layers, cover exposed skin, and make sure at least one other person knows your itinerary.'],
  },
  {
    event: 'Cold Weather Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'CWY', awips: 'NPW', wmo: ['WW', 3], vtec: 'CW.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 1, leadHours: [6, 24], durationHours: [9, 15],
    what: ['Very cold wind chills as low as 20 below zero expected.'],
    impacts: ['The cold wind chills could cause frostbite on exposed skin in as little as 30 minutes.'],
    instruction: ['Use caution while traveling outside. Wear appropriate clothing, a hat, and gloves.'],
  },
  {
    event: 'Frost Advisory', category: 'Met', severity: 'Minor', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'FRY', awips: 'NPW', wmo: ['WW', 3], vtec: 'FR.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 4, leadHours: [4, 14], durationHours: [6, 10],
    what: ['Temperatures as low as 33 will result in frost formation.', 'Temperatures in the lower to mid 30s will result in frost formation.'],
    impacts: ['Frost could harm sensitive outdoor vegetation. Sensitive outdoor plants may be killed if left uncovered.'],
    instruction: ['Take steps now to protect tender plants from the cold.'],
  },
  {
    event: 'Freeze Warning', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'FZW', nws: 'FZW', awips: 'NPW', wmo: ['WW', 3], vtec: 'FZ.W',
    kind: 'segmented', ugc: 'zone', hazards: ['winter'], weight: 3, leadHours: [4, 14], durationHours: [6, 10],
    what: ['Sub-freezing temperatures as low as 26 expected.', 'Sub-freezing temperatures as low as 28 degrees expected.'],
    impacts: [
      'Frost and freeze conditions could kill crops, other sensitive vegetation and possibly damage unprotected outdoor plumbing.',
    ],
    instruction: [
      'Take steps now to protect tender plants from the cold. To prevent freezing and possible bursting of outdoor water pipes they should be wrapped, drained, or allowed to drip slowly.',
    ],
  },
  // ---- Heat ---------------------------------------------------------------------------------
  {
    event: 'Extreme Heat Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'EHW', nws: 'EHW', awips: 'NPW', wmo: ['WW', 4], vtec: 'XH.W',
    kind: 'segmented', ugc: 'zone', hazards: ['heat'], weight: 1, leadHours: [6, 24], durationHours: [24, 72],
    what: ['Dangerously hot conditions with temperatures up to 112 expected.', 'Dangerously hot conditions with heat index values up to 115 expected.'],
    impacts: ['Extreme heat will significantly increase the potential for heat related illnesses, particularly for those working or participating in outdoor activities.'],
    instruction: ['Drink plenty of fluids, stay in an air-conditioned room, stay out of the sun, and check up on relatives and neighbors. Young children and pets should never be left unattended in vehicles under any circumstances.'],
  },
  {
    event: 'Heat Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'HTY', awips: 'NPW', wmo: ['WW', 4], vtec: 'HT.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['heat'], weight: 2, leadHours: [4, 20], durationHours: [8, 36],
    what: ['Heat index values up to 108 expected.', 'Temperatures up to 104 expected.'],
    impacts: ['Hot temperatures and high humidity may cause heat illnesses.'],
    instruction: ['Drink plenty of fluids, stay in an air-conditioned room, stay out of the sun, and check up on relatives and neighbors.'],
  },
  // ---- Fire weather ---------------------------------------------------------------------------
  {
    event: 'Red Flag Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'NWS', nws: 'FWW', awips: 'RFW', wmo: ['WW', 8], vtec: 'FW.W',
    kind: 'segmented', ugc: 'fire', hazards: ['fire'], weight: 4, leadHours: [0, 16], durationHours: [8, 36],
    what: [
      'Gusty winds and low relative humidity. Northeast winds 15 to 25 mph with gusts up to 50 mph. Minimum relative humidity 8 to 15 percent.',
      'Southwest winds 20 to 30 mph with gusts up to 45 mph. Relative humidity as low as 10 percent.',
      'Dry lightning. Scattered thunderstorms with little wetting rain, gusty outflow winds to 50 mph.',
    ],
    impacts: [
      'Any fires that develop will likely spread rapidly. Outdoor burning is not recommended.',
      'Conditions will be favorable for rapid fire growth and extreme fire behavior.',
    ],
    instruction: [
      'A Red Flag Warning means that critical fire weather conditions are either occurring now, or will shortly. A combination of strong winds, low relative humidity, and warm temperatures can contribute to extreme fire behavior.',
    ],
  },
  {
    event: 'Fire Weather Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Future', response: 'Prepare',
    same: 'NWS', nws: 'FWA', awips: 'RFW', wmo: ['WW', 8], vtec: 'FW.A',
    kind: 'segmented', ugc: 'fire', hazards: ['fire'], weight: 2, leadHours: [18, 40], durationHours: [8, 24],
    what: ['Gusty winds and low relative humidity possible. Winds 20 to 30 mph with gusts up to 55 mph. Relative humidity as low as 7 percent.'],
    impacts: ['Any fires that develop may spread rapidly. Outdoor burning is not recommended.'],
    instruction: ['A Fire Weather Watch means that critical fire weather conditions are forecast to occur. Listen for later forecasts and possible Red Flag Warnings.'],
  },
  // ---- Wind -------------------------------------------------------------------------------------
  {
    event: 'High Wind Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'HWW', nws: 'HWW', awips: 'NPW', wmo: ['WW', 7], vtec: 'HW.W',
    kind: 'segmented', ugc: 'zone', hazards: ['wind'], weight: 3, leadHours: [0, 12], durationHours: [6, 30],
    what: [
      'Northeast winds 30 to 40 mph with gusts up to 65 mph expected.',
      'West winds 25 to 35 mph with gusts up to 60 mph expected.',
      'South winds 35 to 45 mph with gusts to 75 mph in the mountains and foothills.',
    ],
    impacts: [
      'Damaging winds will blow down trees and power lines. Widespread power outages are expected. Travel will be difficult, especially for high profile vehicles.',
      'High winds will blow around unsecured objects and may damage property and cause power outages. Travel will be difficult.',
    ],
    details: ['The strongest winds are expected in wind-prone canyons and passes and below the passes.'],
    instruction: [
      'People should avoid being outside in forested areas and around trees and branches. If possible, remain in the lower levels of your home during the windstorm, and avoid windows. Use caution if you must drive.',
    ],
  },
  {
    event: 'High Wind Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Future', response: 'Prepare',
    same: 'HWA', nws: 'HWA', awips: 'NPW', wmo: ['WW', 7], vtec: 'HW.A',
    kind: 'segmented', ugc: 'zone', hazards: ['wind'], weight: 1, leadHours: [18, 48], durationHours: [8, 24],
    what: ['Northwest winds 35 to 45 mph with gusts up to 65 mph possible.'],
    impacts: ['Damaging winds could blow down trees and power lines. Widespread power outages are possible. Travel could be difficult, especially for high profile vehicles.'],
    instruction: ['Monitor the latest forecasts and warnings for updates on this situation. Fasten loose objects or shelter objects in a safe location prior to the onset of winds.'],
  },
  {
    event: 'Wind Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'WIY', awips: 'NPW', wmo: ['WW', 7], vtec: 'WI.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['wind', 'fire', 'severe'], weight: 4, leadHours: [0, 12], durationHours: [6, 24],
    what: ['Southwest winds 20 to 30 mph with gusts up to 45 mph expected.', 'North winds 25 to 35 mph with gusts up to 50 mph.'],
    impacts: ['Gusty winds will blow around unsecured objects. Tree limbs could be blown down and a few power outages may result.'],
    instruction: ['Use extra caution when driving, especially if operating a high profile vehicle. Secure outdoor objects.'],
  },
  {
    event: 'Blowing Dust Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'NWS', nws: 'DUY', awips: 'NPW', wmo: ['WW', 7], vtec: 'DU.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['dust'], weight: 1, leadHours: [0, 6], durationHours: [3, 9],
    what: ['Visibility one mile or less in blowing dust expected.'],
    impacts: ['Hazardous travel due to reduced visibility.'],
    instruction: ['Be ready for a sudden drop in visibility. Slow down and leave plenty of distance ahead of you.'],
  },
  {
    event: 'Dust Storm Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Immediate', response: 'Avoid',
    same: 'DSW', nws: 'DSW', awips: 'DSW', wmo: ['WW', 7], vtec: 'DS.W',
    kind: 'segmented', ugc: 'zone', hazards: ['dust'], weight: 1, leadHours: [0, 0], durationHours: [1, 3],
    what: ['Visibility less than one quarter mile in blowing dust. Winds 40 to 50 mph with gusts to 60 mph.'],
    impacts: ['Dangerous life-threatening travel. Visibility may suddenly drop to near zero.'],
    instruction: ['Pull Aside, Stay Alive. Pull your vehicle off the road as far as possible, turn off your lights, set the emergency brake, and keep your foot off the brake pedal.'],
  },
  {
    event: 'Dense Fog Advisory', category: 'Met', severity: 'Minor', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'FGY', awips: 'NPW', wmo: ['WW', 7], vtec: 'FG.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['fog'], weight: 3, leadHours: [0, 10], durationHours: [4, 10],
    what: ['Visibility one quarter mile or less in dense fog.', 'Visibility one quarter mile or less in dense fog, locally near zero.'],
    impacts: ['Low visibility could make driving conditions hazardous.'],
    instruction: ['If driving, slow down, use your headlights, and leave plenty of distance ahead of you.'],
  },
  // ---- Tropical ---------------------------------------------------------------------------------
  {
    event: 'Hurricane Warning', category: 'Met', severity: 'Extreme', certainty: 'Likely', urgency: 'Expected', response: 'Evacuate',
    same: 'HUW', nws: 'HUW', awips: 'TCV', wmo: ['WT', 8], vtec: 'HU.W',
    kind: 'segmented', ugc: 'zone', hazards: ['tropical'], weight: 1, leadHours: [0, 24], durationHours: [24, 60],
    what: ['Hurricane force winds of 75 to 95 mph with gusts to 110 mph. Storm surge of 5 to 8 feet above ground is possible near the coast.'],
    impacts: ['Prepare for life-threatening wind having possible devastating impacts. Structural damage to sturdy buildings, with some having complete roof and wall failures.'],
    instruction: ['Follow the advice of local officials. Evacuate if told to do so. Complete preparations to protect life and property before the onset of tropical storm force winds.'],
  },
  {
    event: 'Tropical Storm Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'TRW', nws: 'TRW', awips: 'TCV', wmo: ['WT', 8], vtec: 'TR.W',
    kind: 'segmented', ugc: 'zone', hazards: ['tropical'], weight: 1, leadHours: [0, 24], durationHours: [24, 48],
    what: ['Tropical storm force winds of 40 to 55 mph with gusts to 70 mph. Rainfall of 4 to 8 inches with locally higher amounts.'],
    impacts: ['Prepare for hazardous wind having possible limited to significant impacts. Damage to porches, awnings, carports, and sheds. Scattered power and communications outages.'],
    instruction: ['Now is the time to complete preparations to protect life and property. Secure loose outdoor objects and move them inside.'],
  },
  {
    event: 'Tropical Storm Watch', category: 'Met', severity: 'Severe', certainty: 'Possible', urgency: 'Future', response: 'Prepare',
    same: 'TRA', nws: 'TRA', awips: 'TCV', wmo: ['WT', 8], vtec: 'TR.A',
    kind: 'segmented', ugc: 'zone', hazards: ['tropical'], weight: 1, leadHours: [24, 48], durationHours: [24, 48],
    what: ['Tropical storm force winds are possible within 48 hours.'],
    impacts: ['Prepare for hazardous wind having possible limited to significant impacts.'],
    instruction: ['Review your hurricane plan and check on your emergency supplies kit.'],
  },
  {
    event: 'Storm Surge Warning', category: 'Met', severity: 'Extreme', certainty: 'Likely', urgency: 'Expected', response: 'Evacuate',
    same: 'SSW', nws: 'SSW', awips: 'TCV', wmo: ['WT', 8], vtec: 'SS.W',
    kind: 'segmented', ugc: 'zone', hazards: ['tropical'], weight: 1, leadHours: [6, 30], durationHours: [18, 36],
    what: ['Life-threatening storm surge of 4 to 7 feet above ground somewhere within surge prone areas.'],
    impacts: ['Large areas of deep inundation with storm surge flooding accentuated by battering waves. Structural damage to buildings, with several washing away.'],
    instruction: ['Leave immediately if evacuation orders are given for your area. Do not return to evacuated areas until hazardous winds diminish and flood waters abate.'],
  },
  // ---- Coastal ----------------------------------------------------------------------------------
  {
    event: 'Coastal Flood Advisory', category: 'Met', severity: 'Minor', certainty: 'Likely', urgency: 'Expected', response: 'Execute',
    same: 'NWS', nws: 'CFY', awips: 'CFW', wmo: ['WH', 7], vtec: 'CF.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['coastal'], weight: 3, leadHours: [0, 12], durationHours: [3, 6],
    what: ['Up to one half foot of inundation above ground level in low-lying areas near shorelines and tidal waterways.', 'Minor coastal flooding expected with high tide.'],
    impacts: ['Minor flooding is possible in low-lying areas along the shore. Some roads may become impassable.'],
    instruction: ['If travel is required, allow extra time as some roads may be closed. Do not drive around barricades or through water of unknown depth.'],
  },
  {
    event: 'Coastal Flood Warning', category: 'Met', severity: 'Severe', certainty: 'Likely', urgency: 'Expected', response: 'Prepare',
    same: 'CFW', nws: 'CFW', awips: 'CFW', wmo: ['WH', 7], vtec: 'CF.W',
    kind: 'segmented', ugc: 'zone', hazards: ['coastal'], weight: 1, leadHours: [0, 18], durationHours: [3, 8],
    what: ['One to three feet of inundation above ground level in low-lying areas near shorelines and tidal waterways.'],
    impacts: ['Widespread flooding of vulnerable areas near the waterfront and shoreline. Several roads will be closed. Some damage to vulnerable structures may begin to occur.'],
    instruction: ['Take the necessary actions to protect flood-prone property. If travel is required, do not drive around barricades or through water of unknown depth.'],
  },
  {
    event: 'Rip Current Statement', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'NWS', nws: 'RPS', awips: 'CFW', wmo: ['WH', 7], vtec: 'RP.S',
    kind: 'segmented', ugc: 'zone', hazards: ['coastal'], weight: 4, leadHours: [0, 12], durationHours: [12, 36],
    what: ['Dangerous rip currents.', 'Dangerous rip currents and high surf of 5 to 8 feet.'],
    impacts: ['Rip currents can sweep even the best swimmers away from shore into deeper water.'],
    instruction: ['Swimmers should swim near a lifeguard. If caught in a rip current, relax and float. Don\'t swim against the current. If able, swim in a direction following the shoreline. If unable to escape, face the shore and call or wave for help.'],
  },
  {
    event: 'High Surf Advisory', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'NWS', nws: 'SUY', awips: 'CFW', wmo: ['WH', 7], vtec: 'SU.Y',
    kind: 'segmented', ugc: 'zone', hazards: ['coastal'], weight: 2, leadHours: [0, 12], durationHours: [12, 36],
    what: ['Large breaking waves of 10 to 15 feet expected in the surf zone.'],
    impacts: ['Life-threatening swimming and surfing conditions and localized beach erosion.'],
    instruction: ['Remain out of the water, or stay near occupied lifeguard towers. Stay off of rock jetties.'],
  },
  {
    event: 'Beach Hazards Statement', category: 'Met', severity: 'Moderate', certainty: 'Likely', urgency: 'Expected', response: 'Avoid',
    same: 'NWS', nws: 'BHS', awips: 'CFW', wmo: ['WH', 7], vtec: 'BH.S',
    kind: 'segmented', ugc: 'zone', hazards: ['coastal'], weight: 2, leadHours: [0, 12], durationHours: [12, 30],
    what: ['Sneaker waves possible.', 'Elevated surf of 6 to 9 feet with strong rip currents.'],
    impacts: ['Sneaker waves can suddenly wash up on beaches and sweep people into the sea. Logs on the beach may roll.'],
    instruction: ['Remain out of the water to avoid hazardous surf conditions. Never turn your back on the ocean.'],
  },
  // ---- Statements -------------------------------------------------------------------------------
  {
    event: 'Special Weather Statement', category: 'Met', severity: 'Moderate', certainty: 'Observed', urgency: 'Expected', response: 'Execute',
    same: 'SPS', nws: 'SPS', awips: 'SPS', wmo: ['WW', 8],
    kind: 'statement', ugc: 'zone', hazards: ['severe', 'winter', 'fog', 'wind', 'flood'], weight: 3, leadHours: [0, 0], durationHours: [1, 6],
    what: [
      'At this time, a strong thunderstorm was located over {areas}, moving northeast at 20 mph. Wind gusts up to 50 mph and pea size hail are possible with this storm.',
      'Areas of dense fog have developed across {areas} this morning. Visibility has dropped to one quarter mile or less at times.',
      'Snow showers will bring brief heavy snow and reduced visibility to {areas} through this evening, with a quick inch or two of accumulation on untreated surfaces.',
    ],
    impacts: [],
    details: ['Frequent cloud to ground lightning is occurring with this storm. Lightning can strike 10 miles away from a thunderstorm.', 'Conditions will improve later today.'],
    instruction: ['If outdoors, consider seeking shelter inside a building.', 'If driving, slow down, use your headlights, and leave plenty of distance ahead of you.'],
    nwsHeadlines: ['STRONG THUNDERSTORM WILL IMPACT PORTIONS OF THE AREA', 'AREAS OF DENSE FOG THIS MORNING', 'BRIEF HEAVY SNOW SHOWERS THIS EVENING'],
  },
  {
    event: 'Air Quality Alert', category: 'Met', severity: 'Unknown', certainty: 'Unknown', urgency: 'Unknown', response: 'Monitor',
    same: 'NWS', nws: 'AQA', awips: 'AQA', wmo: ['AE', 4],
    kind: 'statement', ugc: 'zone', hazards: ['air'], weight: 2, leadHours: [0, 0], durationHours: [12, 36],
    what: [
      'The {state} Department of Environmental Quality has issued an Air Quality Alert for {areas}, due to elevated levels of fine particulate matter from wildfire smoke.',
      'The {state} Department of Environmental Quality has issued an Air Quality Alert for ground level ozone for {areas}.',
    ],
    impacts: [],
    details: ['Sensitive groups, including people with heart or lung disease, older adults and children, should limit prolonged or heavy exertion outdoors.'],
    instruction: null,
    nwsHeadlines: ['AIR QUALITY ALERT IN EFFECT'],
  },
];
