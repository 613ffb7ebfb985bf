import { ARROW_STREAM_MEDIA_TYPE } from './arrow/arrow-media-type';

export const JSON_MEDIA_TYPE = 'application/json';

/** What the data plane answers in: JSON (the default, and what every S2SP consumer reads) or Arrow IPC. */
export const DATA_PLANE_FORMATS = [JSON_MEDIA_TYPE, ARROW_STREAM_MEDIA_TYPE] as const;

export type DataPlaneFormat = (typeof DATA_PLANE_FORMATS)[number];

/**
 * The format an `Accept` header asks for: Arrow when it names Arrow with a
 * quality above JSON's (or JSON not at all), JSON otherwise, including when
 * the header is absent or names neither.
 */
export function negotiateDataPlaneFormat(accept: string | undefined): DataPlaneFormat {
  if (!accept) return JSON_MEDIA_TYPE;
  const arrow = qualityOf(accept, ARROW_STREAM_MEDIA_TYPE);
  if (arrow <= 0) return JSON_MEDIA_TYPE;
  return arrow > qualityOf(accept, JSON_MEDIA_TYPE) ? ARROW_STREAM_MEDIA_TYPE : JSON_MEDIA_TYPE;
}

/** The q value an Accept header gives one media type (0 when absent). */
function qualityOf(accept: string, mediaType: string): number {
  for (const range of accept.split(',')) {
    const [type, ...parameters] = range.split(';').map((part) => part.trim().toLowerCase());
    if (type !== mediaType) continue;
    const q = parameters.find((parameter) => parameter.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    return Number.isFinite(value) ? value : 0;
  }
  return 0;
}

/** The Accept header our consumer sends: Arrow preferred, JSON understood (a server without Arrow answers JSON). */
export const CONSUMER_ACCEPT = `${ARROW_STREAM_MEDIA_TYPE}, ${JSON_MEDIA_TYPE};q=0.9`;
