// The parts the fuzz test's requests are made of: paths of every route family, query strings and bodies, valid-ish and broken.
import type { Random } from './random.js';

/** What a fuzz run knows of the service's data: ids that exist (of the guarded tenant and of the fuzzed one). */
export interface FuzzTargets {
  ids: readonly string[];
}

const RESOURCES = ['dogs', 'owners', 'veterinarians', 'foods'];
const NESTED = [
  'owners/{id}/dogs',
  'owners/{id}/veterinarians',
  'veterinarians/{id}/dogs',
  'dogs/{id}/foods',
  'foods/{id}/dogs',
  'owners/{id}/dogs/search',
  'dogs/{id}/owners',
  'foods/{id}/foods/{id}',
];
const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'valueOf'];
const FIELD_NAMES = [
  'name',
  'furColor',
  'state',
  'location',
  'ownerId',
  'veterinarianId',
  'foodIds',
  'veterinarianIds',
  'email',
  'clinic',
  'brand',
  'id',
  'createdAt',
  'method',
  'suppress_response_codes',
  'access_token',
  'password',
  'appName',
  'grant_type',
  'client_id',
  'client_secret',
  'scope',
  'token',
  'token_type_hint',
  ...PROTOTYPE_NAMES,
];
const PARAMS = [
  'fields',
  'limit',
  'offset',
  'color',
  'state',
  'location',
  'clinic',
  'brand',
  'q',
  'sort',
  'method',
  'suppress_response_codes',
  'access_token',
  'types',
  'from',
  'to',
  'amount',
  'colour',
  'a[b]',
  'x[]',
  '',
  ...PROTOTYPE_NAMES,
];

/** Text a client might send: plain, accented, XML-invalid, markup, overlong, empty. */
export function text(random: Random): string {
  switch (random.int(0, 11)) {
    case 0:
      return random.string('abcdefghijklmnopqrstuvwxyz', random.int(1, 12));
    case 1:
      return random.pick(['Rex', 'Tromsø', 'Straße', 'ÆØÅ', '犬', '🐕', 'ann@example.com', 'brown']);
    case 2:
      return random.string(
        '\u0000\u0001\u0008\u000b\u000c\u001f\u007f\u0085\ufffe\uffff\ud800\udc00 a',
        random.int(1, 6),
      );
    case 3:
      return random.pick(['<dog>', '</error>', ']]>', '&amp;', '&#0;', '<?xml?>', '"\'<>&']);
    case 4:
      return 'x'.repeat(random.pick([100, 101, 200, 5000]));
    case 5:
      return random.pick(['', ' ', '   ', '\t', '\r\n', 'null', 'undefined', 'NaN']);
    case 6:
      return random.pick([...PROTOTYPE_NAMES, 'put', 'DELETE', 'post', 'Post', 'get', 'patch']);
    case 7:
      return random.pick(['registered', 'adoptable', 'adopted', 'lost', 'ADOPTABLE', 'gone', 'true', 'TRUE', 'false']);
    case 8:
      return String(random.pick([0, -1, 1, 99, 100, 101, 1e21, 2 ** 53, 0.5]));
    case 9:
      return random.chance(0.5)
        ? random.pick([
            'client_credentials',
            'refresh_token',
            'authorization_code',
            'password',
            'read',
            'write',
            'read write',
          ])
        : random.pick(['EUR', 'usd', 'JPY', 'XXX', 'E', '100', '100.50', '1e3', '-1', '0.0000001']);
    case 10:
      return random.pick(['name,owner(name,dogs(name,foods(name)))', 'a(b(c(d(e(f)))))', 'name(', ',', '()', '-name']);
    default:
      return random.string('abc ,()-_.~!*%+=&?#/:;@', random.int(0, 20));
  }
}

/** A value percent-encoded the right way, or broken on purpose (a lone %, a bad hex digit, invalid UTF-8, NUL). */
export function encoded(random: Random, value: string): string {
  if (random.chance(0.8)) return encodeURIComponent(value.replace(/[\ud800-\udfff]/g, '\ufffd'));
  const broken = random.pick([
    '%',
    '%G1',
    '%C3%28',
    '%00',
    '%FF%FE',
    '%EF%BF%BF',
    '%ED%A0%80',
    '%01',
    '%E2%82',
    '+',
    '%2',
  ]);
  return encodeURIComponent(value.slice(0, 5).replace(/[\ud800-\udfff]/g, '')) + broken;
}

function anId(random: Random, targets: FuzzTargets): string {
  if (targets.ids.length > 0 && random.chance(0.6)) return random.pick(targets.ids);
  return random.pick([
    'count',
    'search',
    'nope',
    '__proto__',
    'constructor',
    '%00',
    '%ZZ',
    '..',
    '.',
    'a.b.c',
    'x'.repeat(300),
    '%E2%80%AE',
    '0',
    'Rex.yaml',
  ]);
}

/** A path of one of the route families: API resources, items, nested, search, convert, adoptions, OAuth, portal, infra. */
export function path(random: Random, targets: FuzzTargets): string {
  const version = random.chance(0.9) ? random.pick(['v1', 'v2']) : random.pick(['v3', 'v1.2', 'V2', '']);
  const prefix = version === '' ? '' : `/${version}`;
  const suffix = random.chance(0.2) ? random.pick(['.json', '.xml', '.yaml', '.', '.JSON', '.xml.json']) : '';
  const slash = random.chance(0.1) ? '/' : '';
  switch (random.int(0, 19)) {
    case 0:
    case 1:
    case 2:
    case 14:
    case 15:
      return `${prefix}/${random.pick(RESOURCES)}${suffix}${slash}`;
    case 3:
    case 4:
    case 16:
    case 17:
      return `${prefix}/${random.pick(RESOURCES)}/${anId(random, targets)}${suffix}${slash}`;
    case 5:
    case 18:
    case 19:
      return `${prefix}/${random.pick(NESTED).replace(/\{id\}/g, () => anId(random, targets))}${suffix}`;
    case 6:
      return `${prefix}/${random.pick(['search', `${random.pick(RESOURCES)}/count`, 'dogs/search'])}${suffix}`;
    case 7:
      return `${prefix}/${random.pick(['convert', 'adoptions', 'adoptions/x', 'convert/EUR'])}${suffix}`;
    case 8:
      return random.pick(['/oauth2/token', '/oauth2/revoke', '/oauth2/introspect', '/oauth2/authorize', '/oauth2/x']);
    case 9:
      return random.pick(['/.well-known/oauth-authorization-server', '/.well-known/x', '/oauth2/token/']);
    case 10:
      return random.pick(['/portal/signup', '/portal/signup/', '/portal', '/portal/versions', '/portal/nope']);
    case 11:
      return (
        random.pick(['/portal/errors', '/portal/errors/1001', '/portal/errors/__proto__', '/portal/errors/99999']) +
        random.pick(['', '', '/x'])
      );
    case 12:
      return random.pick(['/portal/openapi/v1.json', '/portal/openapi/v2.json', '/portal/openapi/v3.json']);
    default:
      return random.pick(['/', '/healthz', '/readyz', '/metrics', '/favicon.ico', '/healthz/x', '//', '/%2e%2e/']);
  }
}

/** A query string: known and unknown parameters, repeated ones, bad encodings, sometimes huge. */
export function query(random: Random, extra: string[] = []): string {
  if (random.chance(0.3) && extra.length === 0) return '';
  const pairs = [...extra];
  for (const name of random.some(PARAMS, 5)) {
    const value = encoded(random, text(random));
    pairs.push(random.chance(0.05) ? name : `${encoded(random, name)}=${value}`);
  }
  if (random.chance(0.05)) pairs.push(`fields=${'name,'.repeat(random.pick([100, 3000, 5000]))}name`);
  if (random.chance(0.05)) pairs.push(...Array.from({ length: random.int(10, 300) }, () => 'color=brown'));
  return pairs.length === 0 ? '?' : `?${pairs.join(random.chance(0.05) ? ';' : '&')}`;
}

/** The fields of a body (JSON or form), valid-ish: real names with odd values, and names no resource has. */
export function bodyFields(random: Random, targets: FuzzTargets): Array<[string, unknown]> {
  const fields: Array<[string, unknown]> = [];
  if (random.chance(0.7)) fields.push(['name', text(random)]);
  for (const name of random.some(FIELD_NAMES, 4)) {
    const value = random.pick<() => unknown>([
      () => text(random),
      () => (targets.ids.length > 0 ? random.pick(targets.ids) : 'nope'),
      () => random.some(targets.ids, 3),
      () => null,
      () => random.int(-5, 5),
      () => random.chance(0.5),
      () => ({ [random.pick(PROTOTYPE_NAMES)]: text(random) }),
      () => [text(random), 1, null],
    ])();
    fields.push([name, value]);
  }
  return fields;
}

/** A JSON text of the fields, written by hand so `__proto__` stays a plain key; sometimes broken. */
export function jsonBody(random: Random, fields: Array<[string, unknown]>): string {
  const written = `{${fields.map(([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value) ?? 'null'}`).join(',')}}`;
  switch (random.int(0, 9)) {
    case 0:
      return written.slice(0, random.int(0, written.length));
    case 1:
      return random.pick([
        '',
        'null',
        '[]',
        '"x"',
        '1',
        '{"a":1,}',
        "{'a':1}",
        '[{"name":"Rex"}]',
        '{"name":"\\ud800"}',
      ]);
    case 2:
      return '['.repeat(random.pick([100, 5000])) + ']'.repeat(random.int(0, 100));
    case 3:
      return `{"name":"${'x'.repeat(17 * 1024)}"}`;
    default:
      return written;
  }
}

/** A form text of the fields; sometimes with broken encodings or repeated names. */
export function formBody(random: Random, fields: Array<[string, unknown]>): string {
  const pairs = fields.map(([name, value]) => {
    const written = Array.isArray(value) ? value.join(',') : typeof value === 'object' ? '[object]' : String(value);
    return `${encoded(random, name)}=${encoded(random, written)}`;
  });
  if (random.chance(0.1)) pairs.push(...pairs);
  return pairs.join('&');
}

const WRITABLE: Record<string, string[]> = {
  dogs: ['furColor', 'state', 'location'],
  owners: ['email', 'location'],
  veterinarians: ['clinic', 'location'],
  foods: ['brand'],
};

/** A resource and some of its writable fields, `name` always among them. */
export function writableFields(random: Random): [string, string[]] {
  const resource = random.pick(RESOURCES);
  return [resource, ['name', ...new Set(random.some(WRITABLE[resource] ?? [], 2))]];
}
