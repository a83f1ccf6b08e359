import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createDog, dogNames as names } from '../helper.js';

test('fields returns only the named fields, in the order asked, on items and collections', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex', furColor: 'brown' });
  const one = await api.request({ url: `/v1/dogs/${dog.id}?fields=furColor,name` });
  assert.deepEqual(one.json(), { dog: { furColor: 'brown', name: 'Rex' } });
  const list = await api.request({ url: '/v1/dogs?fields=id' });
  assert.deepEqual(list.json(), { dogs: [{ dog: { id: dog.id } }] });
  const xml = await api.request({ url: `/v1/dogs/${dog.id}.xml?fields=name` });
  assert.match(xml.body, /<dog><name>Rex<\/name><\/dog>$/);
});

const badFields: Array<[string, number, RegExp]> = [
  [
    'colour',
    2003,
    /"colour".*Valid fields of dogs: id, name, furColor, state, location, ownerId, veterinarianId, createdAt, updatedAt/,
  ],
  ['foodIds', 2003, /"foodIds"/],
  ['name,', 2003, /expected a field name at character 6.*Valid fields of dogs/],
  ['name(first)', 2003, /"name" is not an association/],
  ['a(b(c(d(e(f)))))', 2004, /more than 4 levels/],
];
for (const [fields, code, message] of badFields) {
  test(`fields=${fields} is a 400 (code ${code}) listing the valid fields`, async (t) => {
    const api = await build(t);
    const response = await api.request({ url: `/v1/dogs?fields=${encodeURIComponent(fields)}` });
    assert.equal(response.statusCode, 400);
    assert.equal(response.json().code, code);
    assert.match(response.json().message, message);
  });
}

test('limit and offset page through the collection in creation order', async (t) => {
  const api = await build(t);
  for (let i = 0; i < 25; i += 1) await createDog(api, { name: `dog${i}` });
  assert.equal((await names(api, '/v1/dogs')).length, 10);
  assert.deepEqual(await names(api, '/v1/dogs?limit=3&offset=5'), ['dog5', 'dog6', 'dog7']);
  assert.deepEqual(await names(api, '/v1/dogs?offset=23'), ['dog23', 'dog24']);
  assert.deepEqual(await names(api, '/v1/dogs?offset=100'), []);
  assert.equal((await names(api, '/v1/dogs?limit=100')).length, 25);
});

test('bad limit and offset values are 400s', async (t) => {
  const api = await build(t);
  for (const [query, code] of [
    ['limit=0', 2001],
    ['limit=101', 2001],
    ['limit=abc', 2001],
    ['offset=-1', 2002],
    ['offset=1.5', 2002],
  ] as const) {
    const response = await api.request({ url: `/v1/dogs?${query}` });
    assert.equal(response.statusCode, 400, query);
    assert.equal(response.json().code, code, query);
  }
});

test('an offset of any number of digits is a page past the end, on every kind of list', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'brown', state: 'adoptable' });
  const owner = (await api.request({ method: 'POST', url: '/v1/owners', form: { name: 'Ann' } })).json().owner;
  for (const offset of ['1000000000', '9007199254740991', '99999999999999999999']) {
    for (const path of ['/v1/dogs', '/v2/dogs?color=brown', '/v2/dogs?sort=name', `/v2/owners/${owner.id}/dogs`]) {
      const url = `${path}${path.includes('?') ? '&' : '?'}limit=10&offset=${offset}`;
      const response = await api.request({ url });
      assert.equal(response.statusCode, 200, url);
      assert.deepEqual(response.json().dogs, [], url);
      // Past the end, prev is the last page with items: the one dog's, or none for the owner who has none.
      const prev = /<[^>]*[?&]offset=(\d+)>; rel="prev"/.exec(String(response.headers.link))?.[1];
      assert.equal(prev, path.includes('owners') ? undefined : '0', url);
    }
    const adoptions = await api.request({ url: `/v2/adoptions?offset=${offset}`, token: null });
    assert.equal(adoptions.statusCode, 200);
    assert.deepEqual(adoptions.json().dogs, []);
    // A ranked search past every result too.
    const ranked = await api.request({ url: `/v2/dogs?q=rex&offset=${offset}` });
    assert.equal(ranked.statusCode, 200);
    assert.deepEqual(ranked.json().dogs, []);
  }
});

test('filters match case-insensitively, take comma-separated alternatives, and combine with AND', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'Brown', location: 'Oslo', state: 'adoptable' });
  await createDog(api, { name: 'Fido', furColor: 'black', location: 'oslo' });
  await createDog(api, { name: 'Bella', furColor: 'BROWN', location: 'Bergen', state: 'lost' });
  await createDog(api, { name: 'Ærø', furColor: 'ÉCRU', location: 'Tromsø' });
  assert.deepEqual(await names(api, '/v1/dogs?color=brown'), ['Rex', 'Bella']);
  assert.deepEqual(await names(api, '/v1/dogs?color=brown,black'), ['Rex', 'Fido', 'Bella']);
  assert.deepEqual(await names(api, '/v1/dogs?color=brown&location=OSLO'), ['Rex']);
  assert.deepEqual(await names(api, '/v1/dogs?state=adoptable,lost'), ['Rex', 'Bella']);
  assert.deepEqual(await names(api, '/v1/dogs?color=écru&location=TROMSØ'), ['Ærø']);
  assert.deepEqual(await names(api, '/v1/dogs?color=bro'), []);
});

test('a stored value always matches itself: Σ at the end of a word and İ lower-case as PostgreSQL does', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'İ', furColor: 'ΟΔΟΣ', location: 'İstanbul' });
  await createDog(api, { name: 'i\u0307', furColor: 'οδοσ' });
  await createDog(api, { name: 'i', furColor: 'ΣΑΣ' });
  await createDog(api, { name: 'I', furColor: 'İvory' });
  // Each character's simple lower case (query/lower-case.ts): ΟΔΟΣ is οδοσ, İ is i, on SQLite as on PostgreSQL.
  assert.deepEqual(await names(api, '/v2/dogs?color=%CE%9F%CE%94%CE%9F%CE%A3'), ['İ', 'i\u0307']);
  assert.deepEqual(await names(api, '/v2/dogs?color=%CF%83%CE%B1%CF%83'), ['i']);
  assert.deepEqual(await names(api, '/v2/dogs?color=%C4%B0vory'), ['I']);
  assert.deepEqual(await names(api, '/v2/dogs?color=ivory'), ['I']);
  assert.deepEqual(await names(api, '/v2/dogs?location=%C4%B0STANBUL'), ['İ']);
  const count = await api.request({ url: '/v2/dogs/count?color=%CE%9F%CE%94%CE%9F%CE%A3' });
  assert.equal(count.json().count, 2);
  // Sorted by that lower case, code point by code point, ties in creation order: İ, i and I are all i.
  assert.deepEqual(await names(api, '/v2/dogs?sort=name'), ['İ', 'i', 'I', 'i\u0307']);
});

test('a filter of several values pages through their union in creation order, each item once', async (t) => {
  const api = await build(t);
  for (const [name, furColor] of [
    ['Rex', 'brown'],
    ['Fido', 'black'],
    ['Tass', 'white'],
    ['Bella', 'Brown'],
    ['Luna', 'BLACK'],
  ])
    await createDog(api, { name, furColor });
  assert.deepEqual(await names(api, '/v1/dogs?color=brown,black,brown'), ['Rex', 'Fido', 'Bella', 'Luna']);
  assert.deepEqual(await names(api, '/v1/dogs?color=black,brown&limit=2&offset=1'), ['Fido', 'Bella']);
  assert.deepEqual(await names(api, '/v1/dogs?color=black,brown&limit=3&offset=3'), ['Luna']);
  assert.deepEqual(await names(api, '/v1/dogs?color=black,brown&offset=4'), []);
  const page = await api.request({ url: '/v1/dogs?color=black,brown&limit=3' });
  assert.match(String(page.headers.link), /rel="next"/, 'a next page is announced');
  const last = await api.request({ url: '/v1/dogs?color=black,brown&limit=2&offset=2' });
  assert.doesNotMatch(String(last.headers.link ?? ''), /rel="next"/, 'the last page announces none');
});

test('an invalid state filter is a 400 listing the states', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/v1/dogs?state=sleeping' });
  assert.equal(response.statusCode, 400);
  assert.equal(response.json().code, 2005);
  assert.match(response.json().message, /registered, adoptable, adopted, lost/);
});

test('a filter takes at most 20 different values, repeats counted once, on every list and /adoptions', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'c20', state: 'adoptable' });
  const twenty = Array.from({ length: 20 }, (_, at) => `c${at + 1}`).join(',');
  assert.deepEqual(await names(api, `/v2/dogs?color=${twenty},c20,C1`), ['Rex']);
  for (const url of [
    `/v2/dogs?color=${twenty},c21`,
    `/v2/dogs/count?color=${twenty},c21`,
    `/v2/adoptions?color=${twenty},c21`,
  ]) {
    const response = await api.request({ url, token: url.includes('adoptions') ? null : undefined });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, 2005);
    assert.equal(
      response.json().message,
      'The filter color has 21 different values; the most is 20. Ask for fewer at a time, or leave the filter out.',
    );
  }
});

test('an unknown query parameter is a 400 naming it and listing the accepted ones', async (t) => {
  const api = await build(t);
  const dog = await createDog(api, { name: 'Rex' });
  for (const url of ['/v1/dogs?colour=brown', `/v1/dogs/${dog.id}?limit=5`, '/v2/dogs/count?fields=name']) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, 2000);
    assert.match(response.json().message, /is not accepted here\. Accepted parameters: .*suppress_response_codes/);
  }
  const post = await api.request({ method: 'POST', url: '/v1/dogs?name=Rex', form: { name: 'Rex' } });
  assert.equal(post.statusCode, 400);
  assert.equal(post.json().code, 2000);
});

test('q on <collection>/search, an item path whose id would be "search", is a 400 that points to the searches', async (t) => {
  const api = await build(t);
  for (const version of [1, 2]) {
    for (const [resource, singular] of [
      ['dogs', 'dog'],
      ['owners', 'owner'],
      ['veterinarians', 'veterinarian'],
      ['foods', 'food'],
    ]) {
      const url = `/v${version}/${resource}/search?q=rex%20oslo`;
      const response = await api.request({ url });
      assert.equal(response.statusCode, 400, url);
      assert.match(String(response.headers['content-type']), /^application\/json/, url);
      assert.deepEqual(
        response.json(),
        {
          message:
            `The query parameter "q" is not accepted here: /v${version}/${resource}/search reads as the path of one ` +
            `${singular}, and "search" is never an id. Search the ${resource} with /v${version}/${resource}?q=rex+oslo, ` +
            `or every resource with /v${version}/search?q=rex+oslo.`,
          more_info: 'http://api.test/portal/errors/2000',
          code: 2000,
        },
        url,
      );
    }
  }
  // The suggested paths are the searches: they answer.
  for (const url of ['/v2/dogs?q=rex+oslo', '/v2/search?q=rex+oslo'])
    assert.equal((await api.request({ url })).statusCode, 200, url);
  // Search text that could not be searched is not repeated; XML and another parameter keep the same answer.
  for (const [url, q, type] of [
    ['/v2/dogs/search?q=', 'q=…', 'application/json'],
    [`/v2/dogs/search?q=${'a'.repeat(201)}`, 'q=…', 'application/json'],
    ['/v2/dogs/search.xml?limit=5&q=%C3%B8%26', 'q=%C3%B8%26', 'application/xml'],
  ]) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 400, url);
    assert.match(String(response.headers['content-type']), new RegExp(`^${type}`), url);
    assert.ok(
      response.body.includes(`Search the dogs with /v2/dogs?${q}, or every resource with /v2/search?${q}.`),
      response.body,
    );
  }
  // Without q it stays an item that is not there.
  const plain = await api.request({ url: '/v2/dogs/search' });
  assert.equal(plain.statusCode, 404);
  assert.equal(plain.json().code, 4000);
});

test('a trailing slash is tolerated', async (t) => {
  const api = await build(t);
  await createDog(api, { name: 'Rex', furColor: 'brown' });
  assert.deepEqual(await names(api, '/v1/dogs/?color=brown'), ['Rex']);
});
