import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BASE, build, createItem as create } from '../helper.js';

function kinds(body: { results: Array<Record<string, { name: string }>> }): string[] {
  return body.results.map((entry) => {
    const [kind, item] = Object.entries(entry)[0]!;
    return `${kind}:${item.name}`;
  });
}

test('/search finds dogs, owners, veterinarians and foods in the results envelope', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rex', location: 'Oslo' });
  await create(api, 'owners', { name: 'Ann', email: 'ann@oslo.example' });
  await create(api, 'veterinarians', { name: 'Dr. Lund', clinic: 'Oslo Dyreklinikk' });
  await create(api, 'foods', { name: 'Oslo Bites', brand: 'Nordic' });
  await create(api, 'dogs', { name: 'Fido', location: 'Bergen' });
  const response = await api.request({ url: '/v1/search?q=oslo' });
  assert.equal(response.statusCode, 200);
  assert.deepEqual(kinds(response.json()).sort(), ['dog:Rex', 'food:Oslo Bites', 'owner:Ann', 'veterinarian:Dr. Lund']);
  const first = response.json().results[0];
  const [kind, item] = Object.entries(first)[0] as [string, Record<string, unknown>];
  assert.ok(['dog', 'owner', 'veterinarian', 'food'].includes(kind));
  assert.ok('id' in item && 'createdAt' in item);
  const xml = await api.request({ url: '/v1/search.xml?q=oslo&types=dogs,owners' });
  assert.match(
    xml.body,
    /^<\?xml version="1.0" encoding="UTF-8"\?><results>(<dog>.*<\/dog><owner>.*<\/owner>|<owner>.*<\/owner><dog>.*<\/dog>)<\/results>$/,
  );
});

test('/search ranks the best match first, and pages with limit, offset and Link without overlap', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Alf', location: 'Brown Street' });
  await create(api, 'owners', { name: 'Brown', location: 'Brown' });
  await create(api, 'foods', { name: 'Brown Rice', brand: 'Brown & Co' });
  const all = kinds((await api.request({ url: '/v1/search?q=brown' })).json());
  assert.equal(all.length, 3);
  const pages: string[] = [];
  for (let offset = 0; offset < 3; offset += 1) {
    const page = await api.request({ url: `/v1/search?q=brown&limit=1&offset=${offset}` });
    pages.push(...kinds(page.json()));
    if (offset < 2)
      assert.match(
        String(page.headers.link),
        new RegExp(`<${BASE}/v1/search\\?q=brown&limit=1&offset=${offset + 1}>; rel="next"`),
      );
    else assert.ok(!String(page.headers.link).includes('rel="next"'));
  }
  assert.deepEqual(pages, all);
  const counted = await api.request({ url: '/v1/search?q=brown&limit=1', headers: { prefer: 'count=exact' } });
  assert.equal(counted.headers['x-total-count'], '3');
});

test('/search needs q, takes types from the resource names, and refuses fields', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'owners', { name: 'Rex Owner' });
  assert.deepEqual(kinds((await api.request({ url: '/v1/search?q=rex&types=owners' })).json()), ['owner:Rex Owner']);
  for (const [url, code] of [
    ['/v1/search', 2007],
    ['/v1/search?q=', 2007],
    ['/v1/search?q=rex&types=cats', 2005],
    ['/v1/search?q=rex&fields=name', 2000],
  ] as const) {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 400, url);
    assert.equal(response.json().code, code, url);
  }
  const wrongType = await api.request({ url: '/v1/search?q=rex&types=dogs,cats' });
  assert.match(wrongType.json().message, /dogs, owners, veterinarians, foods; "cats" is not one of them/);
});

test('/search reads types in any case, as a filter reads its values, and quotes a wrong one in lower case', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'owners', { name: 'Rex Owner' });
  await create(api, 'foods', { name: 'Rex Bites' });
  for (const version of [1, 2]) {
    const lower = await api.request({ url: `/v${version}/search?q=rex&types=dogs,owners` });
    const mixed = await api.request({ url: `/v${version}/search?q=rex&types=Dogs,%20OWNERS` });
    assert.equal(mixed.statusCode, 200, mixed.body);
    assert.match(String(mixed.headers['content-type']), /^application\/json/);
    assert.deepEqual(kinds(mixed.json()), ['dog:Rex', 'owner:Rex Owner']);
    assert.equal(mixed.body, lower.body);
    assert.equal(mixed.headers.etag, lower.headers.etag);
  }
  const wrong = await api.request({ url: '/v2/search?q=rex&types=Dogs,Cats' });
  assert.equal(wrong.statusCode, 400);
  assert.match(String(wrong.headers['content-type']), /^application\/json/);
  assert.deepEqual(wrong.json(), {
    message:
      'types names the resources to search, comma-separated, from: dogs, owners, veterinarians, foods; "cats" is not ' +
      'one of them.',
    more_info: `${BASE}/portal/errors/2005`,
    code: 2005,
  });
});
