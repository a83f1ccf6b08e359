// Input hygiene (SPEC §13): text XML cannot carry is refused everywhere, echoes are escaped, names never find prototypes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog, type TestApp } from '../helper.js';

const CHARACTER_NOT_ALLOWED = 2010;

/** A 400 with the catalogue code; every XML answer is checked for well-formedness by the helper's send itself. */
async function assertRefused(api: TestApp, url: string, code: number, message: RegExp, token?: null): Promise<void> {
  for (const suffix of ['', '.xml']) {
    const [path, query] = url.split('?');
    const response = await api.request({ url: `${path}${suffix}${query === undefined ? '' : `?${query}`}`, token });
    assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
    if (suffix === '') {
      assert.equal(response.json().code, code, response.body);
      assert.match(response.json().message, message);
    } else {
      assert.match(response.headers['content-type'] as string, /xml/);
      assert.match(response.body, new RegExp(`<code>${code}</code>`));
    }
  }
}

const refusedQueries: Array<[string, string]> = [
  ['a NUL in a filter value', '/v2/dogs?color=br%00own'],
  ['a control character in q', '/v2/dogs?q=re%01x'],
  ['U+FFFE in fields', '/v2/dogs?fields=name%EF%BF%BE'],
  ['U+FFFF in sort', '/v2/dogs?sort=%EF%BF%BFname'],
  ['a vertical tab in types', '/v2/search?q=rex&types=dogs%0B'],
  ['a NUL in a conversion parameter', '/v2/convert?from=EUR%00&to=USD&amount=1'],
  ['a NUL in limit', '/v2/dogs?limit=1%00'],
  ['a NUL in a count filter', '/v2/dogs/count?location=%00'],
];
for (const [what, url] of refusedQueries) {
  test(`${what} is a 400 (code ${CHARACTER_NOT_ALLOWED}) naming the parameter, in JSON and in XML`, async (t) => {
    const api = await build(t);
    await createDog(api, { name: 'Rex', furColor: 'brown' });
    await assertRefused(api, url, CHARACTER_NOT_ALLOWED, /The query parameter "\w+" contains the character U\+/);
  });
}

test('a character XML cannot carry in a path id is a 400, on items and nested paths; other non-ids are 404s', async (t) => {
  const api = await build(t);
  for (const url of ['/v2/dogs/a%00b', '/v1/owners/x%EF%BF%BE/dogs', '/v2/veterinarians/%1F']) {
    await assertRefused(api, url, CHARACTER_NOT_ALLOWED, /The id in the path contains the character U\+/);
  }
  const notAnId = await api.request({ url: '/v2/dogs/not%20an%20id' });
  assert.equal(notAnId.statusCode, 404);
  assert.equal(notAnId.json().code, 4000);
});

test('a NUL in a filter of the open adoptions list is a 400, not a storage failure', async (t) => {
  const api = await build(t);
  await assertRefused(api, '/v2/adoptions?location=Oslo%00', CHARACTER_NOT_ALLOWED, /"location".*U\+0000/, null);
});

test('the message names the character and its position', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v2/dogs?color=ab%1Fc' });
  assert.match(response.json().message, /"color" contains the character U\+001F at position 3/);
});

test('tab, line breaks, C1 controls and other noncharacters in a query value are not refused', async (t) => {
  const api = await build(t);
  for (const value of ['%09', '%0A', '%0D', '%C2%85', '%EF%B7%90']) {
    const response = await api.request({ url: `/v2/dogs.xml?location=a${value}b` });
    assert.equal(response.statusCode, 200, value);
  }
});

const refusedBodies: Array<[string, string]> = [
  ['a NUL', '{"name":"Re\\u0000x"}'],
  ['U+FFFE', '{"name":"Re\\ufffex"}'],
  ['U+FFFF', '{"location":"\\uffff"}'],
  ['a lone high surrogate', '{"name":"Re\\ud800x"}'],
  ['a lone low surrogate', '{"name":"\\udc00Rex"}'],
  ['a control character in an id list', '{"name":"Rex","foodIds":["a\\u0002"]}'],
];
for (const [what, body] of refusedBodies) {
  test(`a JSON body with ${what} is a 400 (code ${CHARACTER_NOT_ALLOWED}) and creates nothing`, async (t) => {
    const api = await build(t);
    const headers = { 'content-type': 'application/json' };
    const response = await api.request({ method: 'POST', url: '/v2/dogs', body, headers });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, CHARACTER_NOT_ALLOWED);
    assert.match(response.json().message, /The field "\w+" contains the character U\+/);
    assert.deepEqual((await api.request({ url: '/v2/dogs' })).json(), { dogs: [] });
  });
}

test('a form body and an update with a control character are 400s, in XML too', async (t) => {
  const api = await build(t);
  const created = await api.request({ method: 'POST', url: '/v2/dogs.xml', form: { name: 'Re\u0007x' } });
  assert.equal(created.statusCode, 400);
  assert.match(created.body, /<code>2010<\/code>/);
  const dog = await createDog(api, { name: 'Rex' });
  const updated = await api.request({ method: 'PUT', url: `/v2/dogs/${dog.id}`, json: { location: 'Os\u001blo' } });
  assert.equal(updated.statusCode, 400);
  assert.equal(updated.json().code, CHARACTER_NOT_ALLOWED);
});

test('C1 controls and noncharacters other than U+FFFE and U+FFFF are stored and come back in well-formed XML', async (t) => {
  const api = await build(t);
  const name = 'Re\u0085x\ufdd0\u{1fffe}';
  const created = await api.request({ method: 'POST', url: '/v2/dogs', json: { name } });
  assert.equal(created.statusCode, 201, created.body);
  assert.equal(created.json().dog.name, name);
  const listed = await api.request({ url: '/v2/dogs.xml' });
  assert.equal(listed.statusCode, 200);
  assert.ok(listed.body.includes(name));
});

test('a tab in a body field is still a 400 (3006): text fields hold one line', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'POST', url: '/v2/dogs', json: { name: 'Re\tx' } });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3006);
});

const echoes: Array<[string, () => Parameters<TestApp['request']>[0], number, string]> = [
  ['an unknown parameter name', () => ({ url: '/v2/dogs.xml?a%01b=1' }), 2000, 'a\\u0001b'],
  ['an id in a 404', () => ({ url: '/v2/dogs/x%C2%85y.xml' }), 4000, 'x\\u0085y'],
  ['a sort field', () => ({ url: '/v2/dogs.xml?sort=na%C2%85me' }), 2006, 'na\\u0085me'],
  ['a filter value', () => ({ url: '/v2/dogs.xml?state=%C2%9F' }), 2005, '\\u009f'],
  ['a types name', () => ({ url: '/v2/search.xml?q=a&types=d%C2%80' }), 2005, 'd\\u0080'],
  [
    'a body field name',
    () => ({ method: 'POST', url: '/v2/dogs.xml', json: { name: 'Rex', 'a\u0003\ud800': 1 } }),
    3003,
    'a\\u0003\\uD800',
  ],
  ['a method override', () => ({ url: '/v2/dogs.xml?method=p%01t' }), 1005, 'p\\u0001t'],
  ['suppress_response_codes', () => ({ url: '/v2/dogs.xml?suppress_response_codes=%01' }), 1007, '\\u0001'],
];
for (const [what, request, code, echoed] of echoes) {
  test(`an error message escapes ${what} it repeats, so the XML answer stays well-formed`, async (t) => {
    const api = await build(t);
    const response = await api.request(request());
    assert.match(response.headers['content-type'] as string, /xml/);
    assert.match(response.body, new RegExp(`<code>${code}</code>`), response.body);
    assert.ok(response.body.toLowerCase().includes(echoed.toLowerCase()), response.body);
    const json = await api.request({ ...request(), url: request().url.replace('.xml', '') });
    assert.ok(json.json().message.toLowerCase().includes(echoed.toLowerCase()), json.body);
  });
}

const PROTOTYPE_NAMES = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'];
for (const name of PROTOTYPE_NAMES) {
  test(`fields=${name} is a 400 listing the valid fields, nested and on the open adoptions too`, async (t) => {
    const api = await build(t);
    const cases: Array<[string, RegExp, null | undefined]> = [
      [`/v2/dogs?fields=${name}`, /Valid fields of dogs: id, name/, undefined],
      [`/v2/dogs?fields=name,owner(${name})`, /Valid fields of owners: id, name/, undefined],
      [`/v2/owners?fields=dogs(${name}(name))`, /Valid fields of dogs: id, name/, undefined],
      [`/v2/adoptions?fields=${name}`, /Valid fields of dogs: id, name, furColor, location\./, null],
    ];
    for (const [url, message, token] of cases) {
      const response = await api.request({ url, token });
      assert.equal(response.statusCode, 400, `${url}: ${response.body}`);
      assert.equal(response.json().code, 2003, url);
      assert.match(response.json().message, message, url);
      const xml = await api.request({ url: url.replace('?', '.xml?'), token });
      assert.equal(xml.statusCode, 400, url);
    }
  });

  test(`${name} as a sort, a types name, a method override or a body field is a 400`, async (t) => {
    const api = await build(t);
    const cases: Array<[Parameters<TestApp['request']>[0], number]> = [
      [{ url: `/v2/dogs?sort=${name}` }, 2006],
      [{ url: `/v2/adoptions?sort=-${name}`, token: null }, 2006],
      [{ url: `/v2/search?q=a&types=${name}` }, 2005],
      [{ url: `/v2/dogs?${name}=1` }, 2000],
      [{ url: `/v2/dogs?method=${name}` }, 1005],
      [{ method: 'POST', url: '/v2/dogs', body: `{"name":"Rex","${name}":"x"}`, headers: ctJson }, 3003],
      [{ method: 'POST', url: '/v2/dogs', form: { name: 'Rex', [name]: 'x' } }, 3003],
    ];
    for (const [request, code] of cases) {
      const response = await api.request(request);
      assert.equal(response.statusCode, 400, `${request.url} ${name}: ${response.body}`);
      assert.equal(response.json().code, code, `${request.url} ${name}`);
    }
  });
}
const ctJson = { 'content-type': 'application/json' };

// A form cannot carry a lone surrogate (UTF-8 has none), so that case is sent as JSON only.
const refusedSignups: Array<[string, Record<string, string>, boolean]> = [
  ['a NUL in the email', { email: 'dev\u0000@example.com' }, true],
  ['a control character in the app name', { appName: 'Shelter\u0001app' }, true],
  ['U+FFFF in the password', { password: 'a long passphrase\uffff' }, true],
  ['a lone surrogate in the app name', { appName: 'Shelter \ud83d app' }, false],
];
for (const [what, change, asForm] of refusedSignups) {
  test(`a sign-up with ${what} is a 400 (code ${CHARACTER_NOT_ALLOWED}) and creates no account`, async (t) => {
    const api = await build(t);
    const body = { email: 'dev@example.com', password: 'a long passphrase', appName: 'Shelter app', ...change };
    const headers = { accept: 'application/json' };
    const response = await api.request({ method: 'POST', url: '/portal/signup', json: body, headers, token: null });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(response.json().code, CHARACTER_NOT_ALLOWED);
    assert.match(response.json().message, new RegExp(`The field "${Object.keys(change)[0]}" contains the character`));
    if (asForm) {
      const form = await api.request({ method: 'POST', url: '/portal/signup', form: body, headers, token: null });
      assert.equal(form.statusCode, 400);
      assert.equal(form.json().code, CHARACTER_NOT_ALLOWED);
    }
    const again = { email: 'dev@example.com', password: 'a long passphrase', appName: 'Shelter app' };
    const valid = await api.request({ method: 'POST', url: '/portal/signup', json: again, headers, token: null });
    assert.equal(valid.statusCode, 200, 'the refused sign-ups created no account with that email');
  });
}

test('a client id with a NUL is an unknown client (401 invalid_client) at the token and introspection endpoints', async (t) => {
  const api = await build(t);
  const form = { grant_type: 'client_credentials', client_id: 'a\u0000b', client_secret: 'x' };
  for (const url of ['/oauth2/token', '/oauth2/introspect']) {
    const body = url === '/oauth2/token' ? form : { token: 'x', client_id: form.client_id, client_secret: 'x' };
    const response = await api.request({ method: 'POST', url, form: body, token: null });
    assert.equal(response.statusCode, 401, `${url}: ${response.body}`);
    assert.equal(response.json().error, 'invalid_client');
  }
});
