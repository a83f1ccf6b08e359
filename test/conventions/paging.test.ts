import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, build, createDog, type TestApp } from '../helper.js';

function links(header: string | string[] | number | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  for (const part of String(header).split(/,\s*(?=<)/)) {
    const match = /^<([^>]+)>; rel="(\w+)"$/.exec(part.trim());
    assert.ok(match, `malformed link ${part}`);
    result[match[2]!] = match[1]!;
  }
  return result;
}

async function seed(api: TestApp, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) await createDog(api, { name: `dog${i}`, furColor: i % 2 ? 'black' : 'brown' });
}

test('the first page links first and next, built from the public base URL', async (t) => {
  const api = await build(t);
  await seed(api, 25);
  const response = await api.request({ url: '/v1/dogs?limit=10' });
  assert.deepEqual(links(response.headers.link), {
    first: `${BASE}/v1/dogs?limit=10&offset=0`,
    next: `${BASE}/v1/dogs?limit=10&offset=10`,
  });
  assert.equal(response.headers['x-total-count'], undefined);
  assert.equal(response.headers['preference-applied'], undefined);
});

test('a middle page links prev and next and keeps the other parameters; the last page has no next', async (t) => {
  const api = await build(t);
  await seed(api, 25);
  const middle = links(
    (await api.request({ url: '/v1/dogs.xml?color=brown&limit=5&offset=5&fields=name' })).headers.link,
  );
  assert.equal(middle.prev, `${BASE}/v1/dogs.xml?color=brown&limit=5&offset=0&fields=name`);
  assert.equal(middle.next, `${BASE}/v1/dogs.xml?color=brown&limit=5&offset=10&fields=name`);
  const last = links((await api.request({ url: '/v1/dogs?color=brown&limit=5&offset=10' })).headers.link);
  assert.equal(last.next, undefined, 'brown dogs are 13: offset 10 is the last page');
  assert.ok(last.prev);
  const exact = links((await api.request({ url: '/v1/dogs?limit=5&offset=20' })).headers.link);
  assert.equal(exact.next, undefined, '25 dogs: the page at 20 ends exactly at the end');
});

test('prev never overlaps the current page when the offset is not a multiple of the limit', async (t) => {
  const api = await build(t);
  await seed(api, 12);
  const page = links((await api.request({ url: '/v1/dogs?limit=10&offset=3' })).headers.link);
  assert.equal(page.prev, `${BASE}/v1/dogs?limit=3&offset=0`);
});

test('the access token never appears in a Link', async (t) => {
  const api = await build(t);
  await seed(api, 3);
  const header = String((await api.request({ url: '/v1/dogs?limit=1&access_token=secret' })).headers.link);
  assert.ok(!header.includes('secret'));
});

test('past the end, prev is the last page that has items, and there is none when nothing matches', async (t) => {
  const api = await build(t);
  await seed(api, 11);
  const prevOf = async (url: string, token?: null): Promise<string | undefined> => {
    const response = await api.request({ url, token });
    assert.equal(response.statusCode, 200, url);
    const found = links(response.headers.link);
    assert.equal(found.next, undefined, url);
    assert.equal(response.headers['x-total-count'], undefined, url);
    return found.prev;
  };
  assert.equal(await prevOf('/v1/dogs?limit=3&offset=50'), `${BASE}/v1/dogs?limit=3&offset=9`);
  // The page just before the end still has items: prev is the usual one.
  assert.equal(await prevOf('/v1/dogs?limit=10&offset=11'), `${BASE}/v1/dogs?limit=10&offset=1`);
  assert.equal(await prevOf('/v1/dogs?color=white&offset=30'), undefined);
  assert.equal(await prevOf('/v2/search?q=dog&limit=5&offset=40'), `${BASE}/v2/search?q=dog&limit=5&offset=10`);
  assert.equal(await prevOf('/v2/adoptions?limit=4&offset=100', null), undefined);
});

test('Prefer: count=exact adds X-Total-Count, a last link and Preference-Applied', async (t) => {
  const api = await build(t);
  await seed(api, 25);
  const response = await api.request({ url: '/v1/dogs?limit=10', headers: { prefer: 'return=minimal, count=exact' } });
  assert.equal(response.headers['x-total-count'], '25');
  assert.equal(response.headers['preference-applied'], 'count=exact');
  assert.equal(links(response.headers.link).last, `${BASE}/v1/dogs?limit=10&offset=20`);
  const filtered = await api.request({ url: '/v1/dogs?color=black&limit=5', headers: { prefer: 'count=exact' } });
  assert.equal(filtered.headers['x-total-count'], '12');
  assert.equal(links(filtered.headers.link).last, `${BASE}/v1/dogs?color=black&limit=5&offset=10`);
  const empty = await api.request({ url: '/v1/dogs?color=white', headers: { prefer: 'count=exact' } });
  assert.equal(empty.headers['x-total-count'], '0');
  assert.equal(links(empty.headers.link).last, `${BASE}/v1/dogs?color=white&limit=10&offset=0`);
  // The same URL answers with other headers by Prefer, so caches must key it by Prefer (RFC 7240 §2).
  for (const answer of [response, filtered, empty, await api.request({ url: '/v1/dogs?limit=10' })])
    assert.match(String(answer.headers.vary), /^Accept, Prefer(, Accept-Encoding)?$/);
});
