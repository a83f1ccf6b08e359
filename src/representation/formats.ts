// Content negotiation: the format of an answer from the path suffix, else the Accept header, else JSON.
import { ApiError } from '../errors.js';

export type Format = 'json' | 'xml';

export const MEDIA_TYPES: Readonly<Record<Format, string>> = {
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
};

/** The format named by a suffix (`json`, `xml`); any other suffix is a 400 naming the offered ones. */
export function formatFromSuffix(suffix: string): Format {
  const format = suffix.toLowerCase();
  if (format === 'json' || format === 'xml') return format;
  throw new ApiError(
    'formatUnknown',
    `The format ".${suffix}" is not offered. Use .json or .xml at the end of the path, or an Accept header of ` +
      `application/json or application/xml.`,
  );
}

/** The media types of each format, as Accept names them. */
const OFFERED: ReadonlyArray<readonly [Format, string]> = [
  ['json', 'application/json'],
  ['xml', 'application/xml'],
  ['xml', 'text/xml'],
];

/** A qvalue as RFC 9110 §12.4.2 writes it: 0 to 1, at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/**
 * How an Accept range rates a format: its q, how specific the range is (2 the type itself, 1 its type's wildcard, 0 the
 * wildcard of all), and its place in the header.
 */
interface Rating {
  readonly quality: number;
  readonly specificity: number;
  readonly position: number;
}

/**
 * XML when Accept prefers application/xml or text/xml to JSON; otherwise JSON (also when it accepts neither: no 406).
 * A format's q is that of the most specific range that matches it (RFC 9110 §12.5.1: all types at q=1 and
 * application/xml at q=0.1 prefer JSON); on equal q, the one named more specifically, then the one named first, then
 * JSON. A range whose q is not a qvalue (`q=2`, `q=abc`) is left out. So a wildcard rates XML too: all types at q=1
 * and application/json at q=0.1 prefer XML, and `text/*` is text/xml.
 */
export function formatFromAccept(accept: string | undefined): Format {
  if (accept === undefined) return 'json';
  const lower = accept.toLowerCase();
  // Most clients: no XML type and no wildcard that could rate one (`*/*` alone rates both alike: JSON).
  if ((!lower.includes('xml') && !lower.includes('*')) || lower === '*/*') return 'json';
  const ratings = new Map<Format, Rating>();
  const ranges = lower.split(',');
  for (let position = 0; position < ranges.length; position += 1) {
    const [range = '', ...params] = ranges[position]!.split(';');
    const type = range.trim();
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    if (qParam !== undefined && !QVALUE.test(qParam.slice(2))) continue;
    const rated = { quality: qParam === undefined ? 1 : Number(qParam.slice(2)), position };
    for (const [format, media] of OFFERED) {
      const specificity = type === media ? 2 : type === `${media.split('/')[0]}/*` ? 1 : type === '*/*' ? 0 : -1;
      if (specificity < 0) continue;
      const kept = ratings.get(format);
      if (
        kept === undefined ||
        specificity > kept.specificity ||
        (specificity === kept.specificity && rated.quality > kept.quality)
      )
        ratings.set(format, { ...rated, specificity });
    }
  }
  const json = ratings.get('json');
  const xml = ratings.get('xml');
  if (xml === undefined || xml.quality === 0) return 'json';
  if (json === undefined || json.quality < xml.quality) return 'xml';
  if (json.quality > xml.quality) return 'json';
  if (xml.specificity !== json.specificity) return xml.specificity > json.specificity ? 'xml' : 'json';
  return xml.position < json.position ? 'xml' : 'json';
}
