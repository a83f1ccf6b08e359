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

/** XML when Accept names application/xml or text/xml (and prefers it to JSON); otherwise JSON. */
export function formatFromAccept(accept: string | undefined): Format {
  if (accept === undefined) return 'json';
  const lower = accept.toLowerCase();
  if (!lower.includes('xml')) return 'json';
  let best: Format = 'json';
  let bestQuality = 0;
  for (const part of lower.split(',')) {
    const [type = '', ...params] = part.trim().split(';');
    const format =
      type.trim() === 'application/json'
        ? 'json'
        : type.trim() === 'application/xml' || type.trim() === 'text/xml'
          ? 'xml'
          : undefined;
    if (!format) continue;
    const qParam = params.map((param) => param.trim()).find((param) => param.startsWith('q='));
    const quality = qParam ? Number(qParam.slice(2)) : 1;
    if (quality > bestQuality) {
      best = format;
      bestQuality = quality;
    }
  }
  return best;
}
