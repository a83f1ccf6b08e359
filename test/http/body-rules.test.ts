import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import assert from 'node:assert/strict';
import { build, createDog, type TestApp } from '../helper.js';

async function dogCount(api: TestApp): Promise<number> {
  return (await api.request({ url: '/v1/dogs/count' })).json().count;
}

test('strings are trimmed, and blank optional fields are stored as null', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    form: { name: '  Rex  ', furColor: '   ', location: ' Oslo' },
  });
  const { dog } = response.json();
  assert.equal(dog.name, 'Rex');
  assert.equal(dog.furColor, null);
  assert.equal(dog.location, 'Oslo');
});

test('read-only fields in a body are ignored', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    json: { name: 'Rex', id: 'mine', createdAt: '2000-01-01T00:00:00Z', updatedAt: 'x' },
  });
  assert.equal(response.statusCode, 200);
  const { dog } = response.json();
  assert.notEqual(dog.id, 'mine');
  assert.notEqual(dog.createdAt, '2000-01-01T00:00:00Z');
  const put = await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, form: { id: 'other', name: 'Max' } });
  assert.equal(put.json().dog.id, dog.id);
});

const rejectedCreates: Array<[string, Record<string, unknown>, number, RegExp]> = [
  ['a missing name', { furColor: 'brown' }, 3004, /"name" is required/],
  ['an empty name', { name: '' }, 3004, /"name" is required/],
  ['an all-blank name', { name: '   ' }, 3004, /"name" is required/],
  ['a null name', { name: null }, 3004, /"name" is required/],
  ['a name of 101 characters', { name: 'x'.repeat(101) }, 3005, /101 characters long; the most is 100/],
  [
    'an unknown field',
    { name: 'Rex', colour: 'brown' },
    3003,
    /"colour".*Fields you can write: name, furColor, state, location, ownerId, veterinarianId/,
  ],
  ['a __proto__ field', JSON.parse('{"name":"Rex","__proto__":{"admin":true}}'), 3003, /"__proto__"/],
  ['a constructor field', { name: 'Rex', constructor: 'x' }, 3003, /"constructor"/],
  ['a state outside the list', { name: 'Rex', state: 'sleeping' }, 3008, /registered, adoptable, adopted, lost/],
  ['a null state', { name: 'Rex', state: null }, 3008, /cannot be empty or null/],
  ['an empty state', { name: 'Rex', state: ' ' }, 3008, /cannot be empty or null/],
  ['a number for a name', { name: 42 }, 3006, /"name" must be text/],
  ['a list for a colour', { name: 'Rex', furColor: ['a', 'b'] }, 3006, /"furColor" must be text.*a list/],
  ['a character XML cannot carry', { name: 'Re\u0000x' }, 2010, /"name" contains the character U\+0000/],
  ['a line break', { name: 'Re\nx' }, 3006, /control character/],
  ['an owner that does not exist', { name: 'Rex', ownerId: 'nobody' }, 3009, /"ownerId" refers to owners "nobody"/],
];
for (const [what, body, code, message] of rejectedCreates) {
  test(`a create with ${what} is a 400 (code ${code}) and creates nothing`, async (t) => {
    const api = await build(t);
    const response = await api.request({ method: 'POST', url: '/v1/dogs', json: body });
    assert.equal(response.statusCode, 400);
    const error = response.json();
    assert.equal(error.code, code);
    assert.match(error.message, message);
    assert.equal(error.more_info, `${api.config.portalUrl}/errors/${code}`);
    assert.equal(await dogCount(api), 0);
  });
}

test('a state of a number too large for a double is named as such, not as the null JSON writes for it', async (t) => {
  const api = await build(t);
  const body = '{"name":"Rex","state":1e999}';
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    body,
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3008);
  assert.match(
    response.json().message,
    /must be one of: registered, adoptable, adopted, lost, got a number out of range\.$/,
  );
  assert.equal(await dogCount(api), 0);
});

test('a body with a content coding is a 400 that says so, gzip or only labelled; identity is no coding', async (t) => {
  const api = await build(t);
  const json = '{"name":"Rex"}';
  for (const [coding, body] of [
    ['gzip', gzipSync(json)],
    ['br', json],
  ] as const) {
    const response = await api.request({
      method: 'POST',
      url: '/v1/dogs',
      body,
      headers: { 'content-type': 'application/json', 'content-encoding': coding },
    });
    assert.equal(response.statusCode, 400, coding);
    assert.equal(response.json().code, 3002, coding);
    assert.match(response.json().message, new RegExp(`^The body has Content-Encoding ${coding}; the API reads bodies`));
  }
  assert.equal(await dogCount(api), 0);
  const plain = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    body: json,
    headers: { 'content-type': 'application/json', 'content-encoding': 'Identity' },
  });
  assert.equal(plain.statusCode, 200);
});

test('a 100-character name is accepted, counted in characters not bytes', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'ø'.repeat(100) } });
  assert.equal(response.statusCode, 200);
});

test('a form body with a repeated field is a 400', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    body: 'name=a&name=b',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3006);
});

test('an invalid PUT changes nothing', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex', location: 'Oslo' });
  for (const body of [
    { name: null },
    { state: 'x' },
    { location: 'Bergen', bogus: '1' },
    { location: 'y'.repeat(101) },
  ]) {
    const response = await api.request({ method: 'PUT', url: `/v1/dogs/${dog.id}`, json: body });
    assert.equal(response.statusCode, 400, JSON.stringify(body));
  }
  assert.deepEqual((await api.request({ url: `/v1/dogs/${dog.id}` })).json(), { dog });
});

test('control parameters in a body are not fields', async (t) => {
  const api = await build(t);
  const response = await api.request({
    method: 'POST',
    url: '/v1/dogs',
    token: null,
    form: { name: 'Rex', suppress_response_codes: 'false', access_token: api.credentials.token },
  });
  assert.equal(response.statusCode, 200);
});

const badBodies: Array<[string, string, string | Buffer, number]> = [
  ['malformed JSON', 'application/json', '{"name": ', 3000],
  ['a JSON list', 'application/json', '[{"name":"Rex"}]', 3000],
  ['a JSON string', 'application/json', '"Rex"', 3000],
  ['a JSON null', 'application/json', 'null', 3000],
  ['another media type', 'text/plain', 'name=Rex', 3002],
  ['XML', 'application/xml', '<dog><name>Rex</name></dog>', 3002],
  ['a +json media type (SPEC §4 names application/json)', 'application/merge-patch+json', '{"name":"Rex"}', 3002],
  ['a body over 16 KiB', 'application/json', JSON.stringify({ name: 'x'.repeat(17 * 1024) }), 3001],
];
for (const [what, type, body, code] of badBodies) {
  test(`a body of ${what} is a 400 with code ${code}`, async (t) => {
    const api = await build(t);
    const response = await api.request({ method: 'POST', url: '/v1/dogs', body, headers: { 'content-type': type } });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, code);
    assert.equal(await dogCount(api), 0);
  });
}

test('a body labelled with a charset other than UTF-8 is a 400 (3002); utf-8 in any case or quoted is read', async (t) => {
  const api = await build(t);
  for (const type of ['application/json; charset=utf-16', 'application/x-www-form-urlencoded;charset="ISO-8859-1"']) {
    const body = type.startsWith('application/json') ? '{"name":"Rex"}' : 'name=Rex';
    const response = await api.request({ method: 'POST', url: '/v2/dogs', body, headers: { 'content-type': type } });
    assert.equal(response.statusCode, 400, type);
    assert.equal(response.json().code, 3002);
    assert.match(
      response.json().message,
      /^The body is labelled charset=(utf-16|iso-8859-1); the API reads bodies as UTF-8/,
    );
  }
  assert.equal(await dogCount(api), 0);
  for (const type of [
    'application/json; charset=UTF-8',
    'application/json;charset="utf-8"',
    'application/json; charset=us-ascii',
  ]) {
    const response = await api.request({
      method: 'POST',
      url: '/v2/dogs',
      body: '{"name":"Rex"}',
      headers: { 'content-type': type },
    });
    assert.equal(response.statusCode, 201, type);
  }
});

test('a create with no body at all is a 400 saying the name is required', async (t) => {
  const api = await build(t);
  const response = await api.request({ method: 'POST', url: '/v1/dogs' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 3004);
});

const undecodableBodies: Array<[string, string, string | Buffer, RegExp]> = [
  [
    'JSON that is not UTF-8',
    'application/json',
    Buffer.from([...Buffer.from('{"name":"'), 0xff, 0xfe, 0x22, 0x7d]),
    /JSON body is not valid UTF-8/,
  ],
  [
    'a form that is not UTF-8',
    'application/x-www-form-urlencoded',
    Buffer.from([0x6e, 0x61, 0x6d, 0x65, 0x3d, 0xe9]),
    /form body is not valid UTF-8/,
  ],
  [
    'a form escaping bytes that are not UTF-8',
    'application/x-www-form-urlencoded',
    'name=%FF%FE',
    /broken %-escape, or escaped bytes that are not UTF-8/,
  ],
  ['a form with a broken %-escape', 'application/x-www-form-urlencoded', 'name=Re%zzx', /broken %-escape/],
  ['a form with a lone %', 'application/x-www-form-urlencoded', 'name=100%', /broken %-escape/],
];
for (const [what, type, body, message] of undecodableBodies) {
  test(`a create with ${what} is a 400 (code 3000) and creates nothing`, async (t) => {
    const api = await build(t);
    const response = await api.request({ method: 'POST', url: '/v2/dogs', body, headers: { 'content-type': type } });
    assert.equal(response.statusCode, 400);
    const error = response.json();
    assert.equal(error.code, 3000);
    assert.match(error.message, message);
    assert.equal(error.more_info, `${api.config.portalUrl}/errors/3000`);
    assert.equal(await dogCount(api), 0);
  });
}

test('escaped UTF-8 in a form and raw UTF-8 in JSON are read as the characters they encode', async (t) => {
  const api = await build(t);
  const form = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    body: 'name=Fj%C3%A4ll+r%C3%A4v',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  assert.equal(form.statusCode, 201);
  assert.equal(form.json().dog.name, 'Fjäll räv');
  const json = await api.request({
    method: 'POST',
    url: '/v2/dogs',
    body: Buffer.from('{"name":"Fjällräv 🐕"}', 'utf8'),
    headers: { 'content-type': 'application/json' },
  });
  assert.equal(json.statusCode, 201);
  assert.equal(json.json().dog.name, 'Fjällräv 🐕');
});

for (const query of ['q=%FF', 'q=Re%zzx', 'color=100%', 'limit=1&q=%C3']) {
  test(`a query string with an undecodable escape (${query}) is a 400 (code 1008)`, async (t) => {
    const api = await build(t);
    const response = await api.request({ url: `/v2/dogs?${query}` });
    assert.equal(response.statusCode, 400);
    const error = response.json();
    assert.equal(error.code, 1008);
    assert.match(error.message, /query string has a broken %-escape/);
  });
}

test('a query string of escaped UTF-8 searches for the characters it encodes', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Fjäll' });
  const response = await api.request({ url: '/v2/dogs?q=fj%C3%A4ll' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(
    response.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name),
    ['Fjäll'],
  );
});
