// One fuzz request as raw bytes: a method, a request line (sometimes broken), odd headers, a body with good or bad framing.
import { bodyFields, formBody, jsonBody, path, query, text, writableFields, type FuzzTargets } from './pieces.js';
import type { Random } from './random.js';

/** The credentials the fuzz may send: none of them can change the guarded tenant's data (see fuzz.test.ts). */
export interface FuzzCredentials extends FuzzTargets {
  /** The guarded tenant's token with the `read` scope only. */
  readOnly: string;
  /** A token of the fuzzed tenant, with both scopes. */
  other: string;
  /** The fuzzed tenant's client, for the token endpoint. */
  clientId: string;
  clientSecret: string;
}

export interface FuzzRequest {
  bytes: Buffer;
  /** A HEAD request: its answer has no body. */
  head: boolean;
  /** The request line as written (for the failure message). */
  line: string;
  /** Fewer bytes than the request announces: only the end of the connection gets it an answer. */
  truncated: boolean;
}

const METHODS = ['GET', 'GET', 'GET', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'];

export function fuzzRequest(random: Random, credentials: FuzzCredentials): FuzzRequest {
  // Some are writes a client could mean, with odd text, for the other tenant: success answers are checked too.
  if (random.chance(0.15)) return plausibleWrite(random, credentials);
  // Most requests are sound HTTP that is wrong for the API (so they reach the handlers); the rest break HTTP itself.
  const broken = random.chance(0.2);
  const method =
    broken && random.chance(0.2)
      ? random.pick(['get', 'G@T', 'FOO', 'CONNECT', 'M-SEARCH', 'A'.repeat(40)])
      : random.pick(METHODS);
  const token = tokenPlacement(random, credentials);
  let target = path(random, credentials) + query(random, token.query);
  if (random.chance(0.03))
    target = random.pick(['*', 'http://api.test/v2/dogs', 'v2/dogs', '/v2/dogs#frag', '/v2/\u0000dogs', '/v2/do gs']);
  const line = broken ? requestLine(random, method, target) : `${method} ${target} HTTP/1.1`;
  const headers = headerLines(random, token.header, broken);
  const body = requestBody(random, credentials, token.form, headers, broken);
  const bytes = Buffer.concat([Buffer.from(`${line}\r\n${headers.join('\r\n')}\r\n\r\n`, 'latin1'), body.bytes]);
  // An odd Content-Length header of its own, or framing cut short: the server waits for bytes that will not come.
  const lengths = headers.filter((header) => header.startsWith('Content-Length:')).length;
  const truncated = body.truncated || lengths > 1 || (lengths === 1 && body.bytes.length === 0);
  return { bytes, head: method === 'HEAD', line, truncated };
}

/** Where the token goes, if anywhere: a header, the query, or a form body field. */
function tokenPlacement(
  random: Random,
  credentials: FuzzCredentials,
): { header?: string; query: string[]; form?: string } {
  const token = random.chance(0.85)
    ? random.pick([credentials.readOnly, credentials.other])
    : random.pick(['not-a-token', '', credentials.clientSecret]);
  switch (random.int(0, 19)) {
    case 0:
      return { query: [] };
    case 1:
      return { query: [`access_token=${encodeURIComponent(token)}`] };
    case 2:
      return { query: [], form: token };
    case 3:
      return {
        header: random.pick([`Bearer`, `Bearer ${token} extra`, `bearer ${token}`, `Basic ${token}`, `Bearer \u0001`]),
        query: random.chance(0.3) ? [`access_token=${token}`] : [],
      };
    case 4: {
      const basic = Buffer.from(`${credentials.clientId}:${random.pick([credentials.clientSecret, 'wrong', ''])}`);
      return { header: `Basic ${basic.toString('base64')}`, query: [] };
    }
    default:
      return { header: `Bearer ${token}`, query: [] };
  }
}

function requestLine(random: Random, method: string, target: string): string {
  switch (random.int(0, 30)) {
    case 0:
      return `${method} ${target}`;
    case 1:
      return `${method} ${target} HTTP/2.0`;
    case 2:
      return `${method}  ${target}  HTTP/1.1`;
    case 3:
      return `${method} ${target} HTTP/1.0`;
    case 4:
      return `${method}\t${target} HTTP/1.1`;
    case 5:
      return `${method} ${target} HTTP/1.1 extra`;
    default:
      return `${method} ${target} HTTP/1.1`;
  }
}

const ACCEPTS = [
  'application/json',
  'application/xml',
  'text/xml',
  'text/html',
  '*/*',
  'application/xml;q=0, application/json',
  'image/png',
  'application/json;q=abc',
  '',
  ',,,',
  'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
];

/** The header lines: Host, Accept, the token, overrides, conditionals, and now and then something odd or huge. */
function headerLines(random: Random, authorization: string | undefined, broken: boolean): string[] {
  const lines: string[] = [];
  if (!broken || !random.chance(0.2))
    lines.push(`Host: ${broken ? random.pick(['dev.api.test', 'developer.x', '', 'a b', 'api.test']) : 'api.test'}`);
  if (random.chance(0.7)) lines.push(`Accept: ${random.pick(ACCEPTS)}`);
  if (authorization !== undefined) lines.push(`Authorization: ${authorization}`);
  const sound: Array<() => string> = [
    () =>
      `X-HTTP-Method-Override: ${random.pick(['PUT', 'delete', 'POST', 'GET', 'PATCH', '__proto__', 'constructor'])}`,
    () => `Idempotency-Key: ${random.pick(['k1', 'k2', '', 'x'.repeat(300), text(random).replace(/[\r\n]/g, '')])}`,
    () => `If-Match: ${random.pick(['*', '"x"', 'W/"x"', '', '"', '"a", "b"'])}`,
    () => `If-None-Match: ${random.pick(['*', '"x"', 'W/"x"', ''])}`,
    () => `X-Request-Id: ${random.pick(['fuzz-1', '', 'x'.repeat(500), 'a b', '<id>', '\u00e9'])}`,
    () => `Origin: ${random.pick(['https://a.example', 'null', ''])}`,
    () => `Access-Control-Request-Method: ${random.pick(['PUT', 'FOO', ''])}`,
    () => `Sec-Purpose: prefetch`,
    () => `Prefer: ${random.pick(['count=exact', 'count=none', 'return=minimal', ''])}`,
    () => `Accept-Encoding: ${random.pick(['gzip', 'br', 'identity;q=0', '*', 'x'])}`,
    () => `X-Odd: ${random.pick(['\u00e9', '', '%00', '"'])}`,
  ];
  const odd: Array<() => string> = [
    () => `X-Padding: ${'a'.repeat(random.pick([1000, 8000, 17000]))}`,
    () => `Expect: ${random.pick(['100-continue', 'foo'])}`,
    () => `X-Control: a\u0001b`,
    () => ': nameless',
    () => `Content-Length: ${random.pick(['1', 'x', '-1', '99999999999'])}`,
    () => `Host: second.test`,
    () => `Connection: ${random.pick(['close', 'keep-alive', 'upgrade'])}`,
  ];
  for (const make of random.some(sound, 3)) lines.push(make());
  if (!broken) return lines;
  for (const make of random.some(odd, 2)) lines.push(make());
  if (random.chance(0.1)) lines.push(...Array.from({ length: random.int(50, 200) }, (_, i) => `X-Many-${i}: ${i}`));
  return lines;
}

const CONTENT_TYPES = [
  'application/json',
  'application/json',
  'application/x-www-form-urlencoded',
  'application/x-www-form-urlencoded',
  'application/json; charset=latin1',
  'application/xml',
  'text/plain',
  'multipart/form-data; boundary=x',
  '',
  'application/json, text/plain',
];

/** A body (or none) with its Content-Type and framing headers added to `headers`. */
function requestBody(
  random: Random,
  credentials: FuzzCredentials,
  formToken: string | undefined,
  headers: string[],
  broken: boolean,
): Framed {
  if (formToken === undefined && random.chance(0.4)) return { bytes: Buffer.alloc(0), truncated: false };
  const type = formToken === undefined ? random.pick(CONTENT_TYPES) : 'application/x-www-form-urlencoded';
  const fields = bodyFields(random, credentials);
  if (formToken !== undefined) fields.push(['access_token', formToken]);
  let text: string;
  if (type.startsWith('application/json')) text = jsonBody(random, fields);
  else if (type === 'application/xml') text = `<dog><name>${random.chance(0.5) ? 'Rex' : '&bad;'}</name>`;
  else if (type.startsWith('multipart'))
    text = '--x\r\nContent-Disposition: form-data; name="name"\r\n\r\nRex\r\n--x--';
  else text = formBody(random, fields);
  if (type !== '') headers.push(`Content-Type: ${type}`);
  const body = Buffer.from(text, random.chance(0.05) ? 'latin1' : 'utf8');
  if (!broken) {
    headers.push(`Content-Length: ${body.length}`);
    return { bytes: body, truncated: false };
  }
  return frame(random, body, headers);
}

interface Framed {
  bytes: Buffer;
  truncated: boolean;
}

/** Content-Length (right, too long, too short) or chunked (right, broken, unfinished). */
function frame(random: Random, body: Buffer, headers: string[]): Framed {
  switch (random.int(0, 11)) {
    case 0:
      headers.push(`Content-Length: ${body.length + random.int(1, 50)}`);
      return { bytes: body, truncated: true };
    case 1:
      headers.push(`Content-Length: ${Math.max(0, body.length - random.int(1, 10))}`);
      return { bytes: body, truncated: false };
    case 2:
    case 3: {
      headers.push(
        `Transfer-Encoding: ${random.pick(['chunked', 'chunked', 'Chunked', 'gzip, chunked', 'chunked, chunked'])}`,
      );
      const half = Math.floor(body.length / 2);
      const chunks = [body.subarray(0, half), body.subarray(half)].filter((chunk) => chunk.length > 0);
      let huge = false;
      const written = chunks.map((chunk) => {
        const size = random.chance(0.1)
          ? random.pick(['zz', '-1', 'ffffffffffff', `${chunk.length.toString(16)};ext=1`])
          : chunk.length.toString(16);
        huge ||= size === 'ffffffffffff';
        return Buffer.concat([Buffer.from(`${size}\r\n`), chunk, Buffer.from('\r\n')]);
      });
      const finished = !random.chance(0.15);
      if (finished) written.push(Buffer.from('0\r\n\r\n'));
      return { bytes: Buffer.concat(written), truncated: !finished || huge };
    }
    case 4:
      return { bytes: body, truncated: false };
    default:
      headers.push(`Content-Length: ${body.length}`);
      return { bytes: body, truncated: false };
  }
}

/** A create, update or delete with the other tenant's token, well formed, whose values are odd text. */
function plausibleWrite(random: Random, credentials: FuzzCredentials): FuzzRequest {
  const [resource, fields] = writableFields(random);
  const values = Object.fromEntries(fields.map((field) => [field, text(random)]));
  const version = random.pick(['v1', 'v2']);
  const suffix = random.pick(['', '', '.json', '.xml']);
  const id = random.pick(credentials.ids);
  const [method, target] = random.pick([
    ['POST', `/${version}/${resource}${suffix}`],
    ['POST', `/${version}/${resource}${suffix}`],
    ['PUT', `/${version}/${resource}/${id}${suffix}`],
    ['DELETE', `/${version}/${resource}/${id}${suffix}`],
    ['GET', `/${version}/${resource}/${id}${suffix}?method=put&${new URLSearchParams(values).toString()}`],
  ] as const);
  const body =
    method === 'GET' || method === 'DELETE'
      ? ''
      : random.chance(0.5)
        ? JSON.stringify(values)
        : new URLSearchParams(values).toString();
  const type = body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded';
  const line = `${method} ${target} HTTP/1.1`;
  const head = [
    line,
    'Host: api.test',
    `Authorization: Bearer ${credentials.other}`,
    `Accept: ${random.pick(ACCEPTS)}`,
  ];
  if (body !== '') head.push(`Content-Type: ${type}`, `Content-Length: ${Buffer.byteLength(body)}`);
  return { bytes: Buffer.from(`${head.join('\r\n')}\r\n\r\n${body}`), head: false, line, truncated: false };
}
