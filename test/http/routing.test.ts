import { test } from 'node:test';
import assert from 'node:assert/strict';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { catalogueEntries } from '../../src/errors.js';
import { build, createDog } from '../helper.js';

const ALLOWED_STATUSES = new Set([200, 201, 304, 400, 401, 403, 404, 500]);

test('a path without a version is a 400 that shows the versioned path to use', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/dogs?color=brown' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 1000);
  assert.match(response.json().message, /use \/v2\/dogs/);
});

test("a path without a version but with a format suffix is that 400, in the suffix's format", async (t) => {
  const api = await build(t);
  for (const [url, format, shown] of [
    ['/dogs.xml', 'xml', '/dogs.xml'],
    ['/search.xml?q=rex', 'xml', '/search.xml'],
    ['/dogs/abc.xml', 'xml', '/dogs/abc.xml'],
    ['/veterinarians.xml', 'xml', '/veterinarians.xml'],
    ['/adoptions.json', 'json', '/adoptions.json'],
  ] as const) {
    const response = await api.request({ url, token: null });
    assert.equal(response.statusCode, 400, url);
    assert.match(String(response.headers['content-type']), new RegExp(`^application/${format}`), url);
    assert.match(response.body, format === 'xml' ? /<code>1000<\/code>/ : /"code":1000/, url);
    assert.ok(response.body.includes(`The path ${shown} has no version`), response.body);
    assert.ok(response.body.includes(`use /v2${shown}`), response.body);
  }
  // A name that is no API's keeps its 404, suffix or not.
  const other = await api.request({ url: '/metrics.xml', token: null });
  assert.equal(other.statusCode, 404);
  assert.equal(other.json().code, 1002);
});

test('an unknown format suffix is a 400 in the format Accept asks for', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v2/dogs.yaml', headers: { accept: 'application/xml' } });
  assert.equal(response.statusCode, 400);
  assert.match(String(response.headers['content-type']), /^application\/xml/);
  assert.match(response.body, /<code>1004<\/code>/);
  assert.match(response.body, /The format &quot;\.yaml&quot; is not offered/);
});

test('an unknown version is a 404 naming the supported versions', async (t) => {
  const api = await build(t);
  for (const url of ['/v3/dogs', '/v1.2/dogs', '/v0/dogs/count', '/V2/dogs']) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 404, url);
    assert.equal(response.json().code, 1001, url);
    assert.match(response.json().message, /Supported versions: v1, v2/);
  }
});

test('an unknown path under a version is a 404 route error', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/cats' });
  assert.equal(response.statusCode, 404);
  assert.equal(response.json().code, 1002);
  const deep = await api.request({ url: '/v1/dogs/abc/owners/def' });
  assert.equal(deep.statusCode, 404);
});

test('a method the path does not offer is a 400 with an Allow header, PATCH included', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const cases = [
    ['PATCH', `/v1/dogs/${dog.id}`, 'GET, HEAD, PUT, DELETE'],
    ['DELETE', '/v1/dogs', 'GET, HEAD, POST'],
    ['PUT', '/v2/dogs', 'GET, HEAD, POST'],
    ['POST', `/v1/dogs/${dog.id}`, 'GET, HEAD, PUT, DELETE'],
    ['TRACE', '/v1/dogs', 'GET, HEAD, POST'],
  ] as const;
  for (const [method, url, allow] of cases) {
    const response = await api.request({ method, url, json: { name: 'x' } });
    assert.equal(response.statusCode, 400, `${method} ${url}`);
    assert.equal(response.headers.allow, allow);
    assert.equal(response.json().code, 1003);
  }
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).json().dog.name, 'Rex');
});

test('the format comes from the suffix first, then Accept, then defaults to JSON; answers vary on Accept', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const cases: Array<[string, Record<string, string>, RegExp]> = [
    [`/v1/dogs/${dog.id}`, {}, /^application\/json/],
    [`/v1/dogs/${dog.id}.json`, { accept: 'application/xml' }, /^application\/json/],
    [`/v1/dogs/${dog.id}.xml`, {}, /^application\/xml/],
    [`/v1/dogs/${dog.id}`, { accept: 'text/xml' }, /^application\/xml/],
    ['/v1/dogs.xml', {}, /^application\/xml/],
    ['/v1/dogs', { accept: 'text/html' }, /^application\/json/],
    ['/v1/dogs.XML?limit=1', {}, /^application\/xml/],
  ];
  for (const [url, headers, type] of cases) {
    const response = await api.request({ url, headers });
    assert.equal(response.statusCode, 200, url);
    assert.match(String(response.headers['content-type']), type, url);
    // A collection's answer varies with Prefer as well (count=exact adds headers).
    assert.equal(response.headers.vary, url.includes(dog.id!) ? 'Accept' : 'Accept, Prefer', url);
  }
});

test('an unknown suffix is a 400 naming the offered formats', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs.yaml' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 1004);
  assert.match(response.json().message, /\.json or \.xml/);
});

test('errors come in XML when XML is asked for, well-formed, in the seed shape', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs/missing.xml' });
  assert.equal(response.statusCode, 404);
  assert.equal(XMLValidator.validate(response.body), true);
  const { error } = new XMLParser().parse(response.body);
  assert.deepEqual(Object.keys(error), ['message', 'more_info', 'code']);
  assert.equal(error.code, 4000);
});

test('suppress_response_codes=true answers 200 and moves the status into response_code', async (t) => {
  const api = await build(t);
  const json = await api.request({ url: '/v1/dogs/missing?suppress_response_codes=TRUE' });
  assert.equal(json.statusCode, 200);
  assert.deepEqual(Object.keys(json.json()), ['response_code', 'message', 'more_info', 'code']);
  assert.equal(json.json().response_code, '404');
  const xml = await api.request({ url: '/v3/dogs.xml?suppress_response_codes=true' });
  assert.equal(xml.statusCode, 200);
  assert.match(xml.body, /<error><response_code>404<\/response_code><message>/);
  const created = await api.request({
    method: 'POST',
    url: '/v2/dogs?suppress_response_codes=true',
    form: { name: 'Rex' },
  });
  assert.equal(created.statusCode, 200);
  assert.equal(created.json().dog.name, 'Rex');
  const normal = await api.request({ url: '/v1/dogs/missing?suppress_response_codes=false' });
  assert.equal(normal.statusCode, 404);
  const bad = await api.request({ url: '/v1/dogs?suppress_response_codes=yes' });
  assert.equal(bad.statusCode, 400);
  assert.equal(bad.json().code, 1007);
});

test('suppress_response_codes in a POST or PUT body works as in the query; a bad value there is a 400 too', async (t) => {
  const api = await build(t);
  const refused = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    form: { name: 'Rex', bogus: '1', suppress_response_codes: 'true' },
  });
  assert.equal(refused.statusCode, 200);
  assert.equal(refused.json().response_code, '400');
  assert.equal(refused.json().code, 3003);
  const created = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex', suppress_response_codes: true },
  });
  assert.equal(created.statusCode, 200);
  assert.equal(created.json().dog.name, 'Rex');
  assert.ok(created.headers.location);
  const absent = await api.request({
    method: 'PUT',
    url: '/v2/dogs/AAAAAAAAAAAAAAAAAAAAAA',
    json: { name: 'Fido', suppress_response_codes: 'TRUE' },
  });
  assert.equal(absent.statusCode, 200);
  assert.equal(absent.json().response_code, '404');
  const anonymous = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    token: null,
    form: { name: 'Rex', suppress_response_codes: 'true' },
  });
  assert.equal(anonymous.statusCode, 200);
  assert.equal(anonymous.json().response_code, '401');
  const normal = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    json: { name: 'Rex', suppress_response_codes: false },
  });
  assert.equal(normal.statusCode, 201);
  for (const body of [
    { form: { name: 'Bad', suppress_response_codes: 'maybe' } },
    { json: { name: 'Bad', suppress_response_codes: { a: 1 } } },
  ]) {
    const bad = await api.request({ method: 'POST', url: '/v2/dogs', ...body });
    assert.equal(bad.statusCode, 400, JSON.stringify(body));
    assert.equal(bad.json().code, 1007);
  }
  // What was refused made nothing: the two dogs created with a valid value are all there is.
  assert.equal((await api.request({ url: '/v2/dogs/count' })).json().count, 2);
});

test('framework statuses outside the allowed eight are mapped: 413 and 415 become 400', async (t) => {
  const api = await build(t);
  const big = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    body: 'x'.repeat(20000),
    headers: { 'content-type': 'application/json' },
  });
  const odd = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    body: 'x',
    headers: { 'content-type': 'image/png' },
  });
  for (const response of [big, odd]) {
    assert.equal(response.statusCode, 400);
    assert.ok(ALLOWED_STATUSES.has(response.statusCode));
  }
  assert.equal(big.json().code, 3001);
  assert.equal(odd.json().code, 3002);
});

test('a browser asking for / on the API host is redirected to the portal; others get the version error', async (t) => {
  const api = await build(t);
  const browser = await api.request({ url: '/', headers: { accept: 'text/html,application/xhtml+xml' } });
  assert.equal(browser.statusCode, 302);
  assert.equal(browser.headers.location, api.config.portalUrl);
  const portal = await api.request({ url: new URL(api.config.portalUrl).pathname, headers: { accept: 'text/html' } });
  assert.equal(portal.statusCode, 200);
  assert.match(String(portal.headers['content-type']), /^text\/html/);
  assert.match(portal.body, /openapi\/v2\.json/);
  const client = await api.request({ url: '/' });
  assert.equal(client.statusCode, 400);
  assert.equal(client.json().code, 1000);
});

test('requests to the dev and developer host aliases are redirected to the portal', async (t) => {
  const api = await build(t);
  for (const host of ['dev.api.test', 'developer.api.test']) {
    const response = await api.request({ url: '/v1/dogs', headers: { host } });
    assert.equal(response.statusCode, 302, host);
    assert.equal(response.headers.location, api.config.portalUrl);
  }
});

test('every more_info link resolves to a page explaining its code, and the list links them all', async (t) => {
  const api = await build(t);
  const codes = catalogueEntries().map((entry) => entry.code);
  assert.equal(new Set(codes).size, codes.length, 'codes are unique');
  const prefix = new URL(api.config.portalUrl).pathname;
  const list = await api.request({ url: `${prefix}/errors` });
  assert.equal(list.statusCode, 200);
  assert.match(String(list.headers['content-type']), /^text\/html/);
  for (const entry of catalogueEntries()) {
    assert.ok(list.body.includes(`/errors/${entry.code}"`), `list links ${entry.code}`);
    const page = await api.request({ url: `${prefix}/errors/${entry.code}/` });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes(`Error ${entry.code}`));
  }
  const error = (await api.request({ url: '/v1/dogs?limit=0' })).json();
  const linked = await api.request({ url: new URL(error.more_info).pathname });
  assert.equal(linked.statusCode, 200);
  assert.equal((await api.request({ url: `${prefix}/errors/12345` })).statusCode, 404);
});

test('every response carries X-Request-Id, errors included', async (t) => {
  const api = await build(t);
  for (const url of ['/v1/dogs', '/v1/nothing', '/dogs', '/healthz']) {
    const response = await api.request({ url });
    assert.match(String(response.headers['x-request-id']), /^[A-Za-z0-9._:-]+$/, url);
  }
});

test('a URL with a broken %-escape gets the API error shape and a request id', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs/%zz' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 1008);
  assert.match(String(response.headers['x-request-id']), /^[A-Za-z0-9._:-]+$/);
});

test('HEAD reads like GET but never carries a method override: one is refused and changes nothing', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const head = await api.request({ method: 'HEAD', url: `/v1/dogs/${dog.id}?method=delete` });
  assert.equal(head.statusCode, 400);
  assert.equal(head.body, '');
  assert.equal((await api.request({ method: 'HEAD', url: `/v1/dogs/${dog.id}` })).statusCode, 200);
  assert.equal((await api.request({ url: `/v1/dogs/${dog.id}` })).statusCode, 200);
});

test('TRACE is a method error with Allow, not a 404', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'TRACE', url: '/v1/dogs' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.headers.allow, 'GET, HEAD, POST');
});

test('a repeated query parameter is a 400 with its own code', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs?limit=1&limit=2' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 2009);
  assert.equal(response.json().message, 'The query parameter "limit" is given 2 times; give it once.');
  // A filter's message says how to ask for several values instead.
  const filter = await api.request({ url: '/v1/dogs?color=brown&color=black' });
  assert.equal(filter.json().code, 2009);
  assert.match(filter.json().message, /give it once \(several values go in one, separated by commas: color=a,b\)\.$/);
});

test('a repeated control parameter is the 2009 of any repeated parameter, the same value twice included', async (t) => {
  const api = await build(t);
  for (const name of ['suppress_response_codes', 'method']) {
    const value = name === 'method' ? 'post' : 'true';
    const response = await api.request({ url: `/v2/dogs?${name}=${value}&${name}=${value}` });
    assert.equal(response.statusCode, 400, name);
    assert.equal(response.json().code, 2009, name);
    assert.equal(response.json().message, `The query parameter "${name}" is given 2 times; give it once.`);
  }
  assert.equal(
    (await api.request({ url: '/v2/dogs/count' })).json().count,
    0,
    'the repeated method=post created nothing',
  );
});

test('a path that does not decode honours suppress_response_codes, in the format asked for', async (t) => {
  const api = await build(t);
  const json = await api.request({ url: '/v2/dogs/%zz?suppress_response_codes=true' });
  assert.equal(json.statusCode, 200);
  assert.deepEqual(Object.keys(json.json()), ['response_code', 'message', 'more_info', 'code']);
  assert.equal(json.json().response_code, '400');
  assert.equal(json.json().code, 1008);
  const xml = await api.request({ url: '/v2/dogs/%FF.xml?suppress_response_codes=true' });
  assert.equal(xml.statusCode, 200);
  assert.match(
    xml.body,
    /^<\?xml[^>]*\?><error><response_code>400<\/response_code><message>The URL could not be decoded/,
  );
  // Without it, the status is the error's own.
  assert.equal((await api.request({ url: '/v2/dogs/%zz' })).statusCode, 400);
});

test('a body field of the wrong type says what it got, with the right article', async (t) => {
  const api = await build(t);
  for (const [value, got] of [
    [{}, 'an object'],
    [7, 'a number'],
    [true, 'a boolean'],
  ] as const) {
    const response = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: value } });
    assert.equal(response.statusCode, 400);
    assert.match(response.json().message, new RegExp(`got ${got}\\.$`));
  }
});

test('an id of any length is looked up like any other: 404 when absent, 401 before it without a token', async (t) => {
  const api = await build(t);
  const long = 'a'.repeat(5000);
  for (const url of [`/v1/dogs/${long}`, `/v2/dogs/${long}.xml`, `/v1/owners/${long}/dogs`]) {
    const absent = await api.request({ url });
    assert.equal(absent.statusCode, 404, url);
    assert.equal(
      String(absent.headers['content-type']).split(';')[0],
      url.endsWith('.xml') ? 'application/xml' : 'application/json',
    );
    assert.match(absent.body, /4000/, url);
    const anonymous = await api.request({ url, token: null });
    assert.equal(anonymous.statusCode, 401, url);
  }
  const dog = await createDog(api, { name: 'Rex' });
  const found = await api.request({ url: `/v1/dogs/${dog.id}` });
  assert.equal(found.statusCode, 200);
});

test('a trailing slash is tolerated after a format suffix too', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  const list = await api.request({ url: '/v2/dogs.xml/?limit=1' });
  assert.equal(list.statusCode, 200);
  assert.match(String(list.headers['content-type']), /^application\/xml/);
  assert.match(list.body, /<dogs><dog>/);
  const one = await api.request({ url: `/v1/dogs/${dog.id}.json/`, headers: { accept: 'application/xml' } });
  assert.equal(one.statusCode, 200);
  assert.equal(one.json().dog.name, 'Rex');
});
