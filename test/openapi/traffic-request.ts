// What one recorded exchange asked for, as the service reads it: the routed path, a method override, the features
// that name a mismatch's group, and the answer's body with its coding undone.
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { TrafficLine } from './traffic-recorder.js';

/** The service's features a request used that the document may not describe: they name a mismatch's group. */
export function featuresOf(line: TrafficLine): string {
  const [pathname = '', search = ''] = line.url.split('?');
  const query = new URLSearchParams(search);
  const features: string[] = [];
  const lastSlash = pathname.lastIndexOf('/');
  if (lastSlash > 0 && pathname.includes('.', lastSlash)) features.push('format suffix');
  if (query.has('method') || line.override !== undefined || bodyNamesMethod(line)) features.push('method override');
  if (query.get('suppress_response_codes')?.toLowerCase() === 'true') features.push('suppress_response_codes');
  if (query.has('access_token')) features.push('access_token');
  return features.length === 0 ? '' : ` [${features.join(', ')}]`;
}

/** A form or JSON body with a `method` field: the override a form can carry. */
function bodyNamesMethod(line: TrafficLine): boolean {
  const body = line.requestBody;
  if (body === undefined) return false;
  if (/json/.test(line.requestType ?? '')) return /"method"\s*:/.test(body);
  return new URLSearchParams(body).has('method');
}

/**
 * The path the router sees: one trailing slash dropped (/v1/dogs/ is /v1/dogs, and /dogs.xml/ is /dogs.xml, as
 * format-suffix.ts reads it), and a format suffix lower-cased (the service reads `.XML` as `.xml`, and the documents
 * say so).
 */
export function routedPath(path: string): string {
  const unslashed = path.replace(/(.)\/$/, '$1');
  return unslashed.replace(/\.(json|xml)$/i, (suffix) => suffix.toLowerCase());
}

/** The method a GET or POST carries out by override (`?method=`, X-HTTP-Method-Override, a form's method), if any. */
export function overrideOf(line: TrafficLine): string | undefined {
  if (line.method !== 'GET' && line.method !== 'POST') return undefined;
  const query = new URLSearchParams(line.url.split('?')[1] ?? '');
  let named: string | null | undefined = query.get('method') ?? line.override;
  if (named == null && line.requestBody !== undefined && !/json/.test(line.requestType ?? ''))
    named = new URLSearchParams(line.requestBody).get('method');
  if (named == null && line.requestBody !== undefined && /json/.test(line.requestType ?? ''))
    named = /"method"\s*:\s*"([a-z]+)"/i.exec(line.requestBody)?.[1];
  return named?.toLowerCase();
}

/** The answer's body as text, its Content-Encoding undone (a HEAD's answer names a coding but has no body). */
export function decoded(line: TrafficLine): string {
  if (line.encoding === undefined || line.encoding === 'identity' || line.body === '') return line.body;
  const raw = Buffer.from(line.body, 'base64');
  if (line.encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (line.encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (line.encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return line.body;
}
