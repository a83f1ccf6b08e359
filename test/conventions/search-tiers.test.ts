// Search ranks in SPEC §5's tiers, then creation order: collections, nested paths, counts and /search.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STREAMED_DEPTH } from '../../src/storage/search-deep.js';
import { rawRun, rawValue } from '../raw-sql.js';
import { BASE, build, createItem as create, dogNames, newAccount, type TestApp } from '../helper.js';

/** One dog per tier of `q=rex ba`, and one that does not match it, created out of tier order. */
const DOGS: Array<[tier: number | null, fields: Record<string, string>]> = [
  [13, { name: 'Rexa', furColor: 'Bay' }],
  [7, { name: 'Seven', furColor: 'Ba-Rex' }],
  [2, { name: 'Rex Bark' }],
  [11, { name: 'Eleven', location: 'Ba Rex' }],
  [1, { name: 'Rex Ba' }],
  [null, { name: 'Rex', location: 'Oslo' }],
  [9, { name: 'Nine', location: 'rex ba' }],
  [4, { name: 'Barky Rexy' }],
  [12, { name: 'Twelve', location: 'Bay Rexton' }],
  [5, { name: 'Five', furColor: 'Rex Ba' }],
  [3, { name: 'Ba the Rex' }],
  [10, { name: 'Ten', location: 'Rex Baden' }],
  [8, { name: 'Eight', furColor: 'Bald Rexish' }],
  [6, { name: 'Six', furColor: 'Rex Barn' }],
];

async function withTierDogs(api: TestApp): Promise<void> {
  for (const [, fields] of DOGS) await create(api, 'dogs', fields);
}

test('q ranks by tier: the whole name, its start, its words, word prefixes, then the other fields, then across', async (t) => {
  const api = await build(t);
  await withTierDogs(api);
  const byTier = DOGS.filter(([tier]) => tier !== null)
    .sort((a, b) => a[0]! - b[0]!)
    .map(([, fields]) => fields.name);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex%20ba&limit=100'), byTier);
  // One word: within a tier, creation order (Rexa, Rex Bark and Rex Ba all start with rex).
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=REX&limit=100'), [
    'Rex',
    'Rexa',
    'Rex Bark',
    'Rex Ba',
    'Ba the Rex',
    'Barky Rexy',
    'Five',
    'Six',
    'Seven',
    'Eight',
    'Nine',
    'Ten',
    'Eleven',
    'Twelve',
  ]);
  const count = await api.request({ url: '/v2/dogs/count?q=rex%20ba' });
  assert.deepEqual(count.json(), { count: 13 });
  // Pages never overlap and join into the whole order; next exists exactly until the last page.
  const pages: string[] = [];
  for (let offset = 0; offset < 13; offset += 4) {
    const page = await api.request({ url: `/v2/dogs?q=rex%20ba&limit=4&offset=${offset}` });
    assert.equal(page.statusCode, 200);
    pages.push(...page.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name));
    assert.equal(String(page.headers.link).includes('rel="next"'), offset + 4 < 13, `offset ${offset}`);
  }
  assert.deepEqual(pages, byTier);
  // With sort, the sort orders the same matches.
  const sorted = await dogNames(api, '/v2/dogs?q=rex%20ba&sort=name&limit=100');
  assert.deepEqual(
    sorted,
    [...byTier].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())),
  );
});

test('a tier reads on past items that do not match all its words until its page is full', async (t) => {
  const api = await build(t);
  for (let n = 0; n < 3; n += 1) await create(api, 'dogs', { name: 'Rexy' });
  await create(api, 'dogs', { name: 'Barky Rexy' });
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'dogs', { name: 'Ba Rex' });
  const first = await api.request({ url: '/v2/dogs?q=rex%20ba&limit=1' });
  assert.deepEqual(first.json(), { dogs: [{ dog: first.json().dogs[0].dog }] });
  assert.equal(first.json().dogs[0].dog.name, 'Ba Rex');
  assert.ok(String(first.headers.link).includes('rel="next"'));
  const second = await api.request({ url: '/v2/dogs?q=rex%20ba&limit=1&offset=1' });
  assert.deepEqual(
    second.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name),
    ['Barky Rexy'],
  );
  assert.ok(!String(second.headers.link).includes('rel="next"'));
});

test('a change or a deletion moves the item in the index in the same write', async (t) => {
  const api = await build(t);
  const max = await create(api, 'dogs', { name: 'Max' });
  await create(api, 'dogs', { name: 'Rexford' });
  const put = await api.request({ method: 'PUT', url: `/v2/dogs/${max.id}`, json: { name: 'Rex' } });
  assert.equal(put.statusCode, 200);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex', 'Rexford']);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=max'), []);
  assert.equal((await api.request({ method: 'DELETE', url: `/v2/dogs/${max.id}` })).statusCode, 200);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rexford']);
});

test('/search merges by tier, then dogs, owners, veterinarians, foods, then creation order', async (t) => {
  const api = await build(t);
  await create(api, 'foods', { name: 'Rex' });
  await create(api, 'veterinarians', { name: 'Lund', clinic: 'Rex Clinic' });
  await create(api, 'owners', { name: 'Rexford' });
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'foods', { name: 'Kibble', brand: 'Rex' });
  await create(api, 'dogs', { name: 'Fido', furColor: 'rex' });
  const kinds = async (url: string): Promise<string[]> => {
    const response = await api.request({ url });
    assert.equal(response.statusCode, 200, url);
    return response.json().results.map((entry: Record<string, { name: string }>) => {
      const [kind, item] = Object.entries(entry)[0]!;
      return `${kind}:${item.name}`;
    });
  };
  const all = ['dog:Rex', 'food:Rex', 'owner:Rexford', 'dog:Fido', 'food:Kibble', 'veterinarian:Lund'];
  assert.deepEqual(await kinds('/v2/search?q=rex'), all);
  assert.deepEqual(await kinds('/v2/search?q=rex&types=foods,dogs'), [
    'dog:Rex',
    'food:Rex',
    'dog:Fido',
    'food:Kibble',
  ]);
  const paged = [...(await kinds('/v2/search?q=rex&limit=4')), ...(await kinds('/v2/search?q=rex&limit=4&offset=4'))];
  assert.deepEqual(paged, all);
});

test("another tenant's matches never count towards a page, a next link or a total", async (t) => {
  const api = await build(t);
  const other = await newAccount(api.app, api.storage);
  for (let n = 0; n < 25; n += 1) await create(api, 'dogs', { name: 'Rex' }, other.token);
  await create(api, 'dogs', { name: 'Rex' });
  await create(api, 'dogs', { name: 'Rexy' });
  const page = await api.request({ url: '/v2/dogs?q=rex&limit=2', headers: { prefer: 'count=exact' } });
  assert.deepEqual(
    page.json().dogs.map((entry: { dog: { name: string } }) => entry.dog.name),
    ['Rex', 'Rexy'],
  );
  assert.ok(!String(page.headers.link).includes('rel="next"'));
  assert.equal(page.headers['x-total-count'], '2');
  const search = await api.request({ url: '/v2/search?q=rex&limit=2' });
  assert.equal(search.json().results.length, 2);
  assert.ok(!String(search.headers.link).includes('rel="next"'));
  const first = await api.request({ url: '/v2/dogs?q=rex&limit=1' });
  assert.match(String(first.headers.link), new RegExp(`<${BASE}/v2/dogs\\?q=rex&limit=1&offset=1>; rel="next"`));
});

test('a nested path searches in tiers among its own items only', async (t) => {
  const api = await build(t);
  const ann = await create(api, 'owners', { name: 'Ann' });
  const bob = await create(api, 'owners', { name: 'Bob' });
  await create(api, 'dogs', { name: 'Rexford', ownerId: ann.id });
  await create(api, 'dogs', { name: 'Rex', ownerId: bob.id });
  await create(api, 'dogs', { name: 'Rex', furColor: 'black', ownerId: ann.id });
  await create(api, 'dogs', { name: 'Fido', location: 'Rexburg', ownerId: ann.id });
  for (const path of ['dogs', 'dogs/search']) {
    assert.deepEqual(await dogNames(api, `/v2/owners/${ann.id}/${path}?q=rex`), ['Rex', 'Rexford', 'Fido'], path);
  }
  assert.deepEqual(await dogNames(api, `/v2/owners/${ann.id}/dogs?q=rex&color=black`), ['Rex']);
  assert.deepEqual(await dogNames(api, `/v2/owners/${ann.id}/dogs?q=rex&limit=1&offset=2`), ['Fido']);
});

test('a ranked page past every result is empty at any depth, its prev the last page', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rex' });
  // SPEC §3: any offset ≥ 0; the page ending past the streamed depth is read by ranking every match (search-deep.ts).
  for (const url of [
    `/v2/dogs?q=rex&offset=${STREAMED_DEPTH - 9}&limit=10`,
    `/v2/search?q=rex&offset=${STREAMED_DEPTH}`,
    '/v2/dogs?q=rex%20max&offset=5000',
    '/v2/dogs?q=rex&offset=99999999999999999999',
  ]) {
    const response = await api.request({ url, headers: { prefer: 'count=exact' } });
    assert.equal(response.statusCode, 200, url);
    assert.deepEqual(response.json().dogs ?? response.json().results, [], url);
    assert.equal(response.headers['x-total-count'], url.includes('max') ? '0' : '1', url);
    if (!url.includes('max'))
      assert.match(String(response.headers.link), /\?q=rex&offset=0&limit=10>; rel="prev"/, url);
  }
  // A parent that does not exist is still a 404, deep or not.
  const orphan = await api.request({ url: '/v2/owners/AAAAAAAAAAAAAAAAAAAAAA/dogs/search?q=rex&offset=5000' });
  assert.equal(orphan.statusCode, 404);
});

/** Follows `next` from `url` to the last page, every item's id in the order the pages give them. */
async function pagedIds(api: TestApp, url: string, envelope: (body: Record<string, unknown>) => string[]) {
  const ids: string[] = [];
  for (let next: string | undefined = url; next !== undefined;) {
    const response = await api.request({ url: next });
    assert.equal(response.statusCode, 200, next);
    ids.push(...envelope(response.json()));
    const link = /<[^>]*(\/v2\/[^>]*)>; rel="next"/.exec(String(response.headers.link));
    next = link?.[1];
  }
  return ids;
}

test(`pages that end past ${STREAMED_DEPTH} results continue the ranking exactly, with next and last links`, async (t) => {
  const api = await build(t);
  // Four tiers, interleaved in creation order: Rex (1), Rexford (2), Max Rex (3), and Rexburg as a location (10).
  const shapes = [{ name: 'Rex' }, { name: 'Rexford' }, { name: 'Max Rex' }, { name: 'Fido', location: 'Rexburg' }];
  const tiers = [1, 2, 3, 10];
  const total = STREAMED_DEPTH + 10;
  for (let made = 0; made < total; made += 100) {
    const batch = Array.from({ length: Math.min(100, total - made) }, (_, n) =>
      create(api, 'dogs', shapes[(made + n) % shapes.length]!),
    );
    await Promise.all(batch);
  }
  const owners = [await create(api, 'owners', { name: 'Rex' }), await create(api, 'owners', { name: 'Rex' })];
  // Creation order is the collection's own order; within a tier the ranking keeps it.
  const made = await pagedIds(api, '/v2/dogs?limit=100', (body) =>
    (body.dogs as Array<{ dog: { id: string } }>).map(({ dog }) => dog.id),
  );
  const tierOfEach = await pagedIds(api, '/v2/dogs?limit=100&fields=name', (body) =>
    (body.dogs as Array<{ dog: { name: string } }>).map(({ dog }) =>
      String(tiers[shapes.findIndex((shape) => shape.name === dog.name)]),
    ),
  );
  assert.equal(made.length, total);
  assert.ok(made.every((id) => /^[\w-]{22}$/.test(id)) && tierOfEach.every((tier) => tier !== 'undefined'));
  const ranked = made
    .map((id, index) => ({ id, tier: Number(tierOfEach[index]) }))
    .sort((a, b) => a.tier - b.tier)
    .map((dog) => dog.id);

  const dogsOf = (body: Record<string, unknown>) =>
    (body.dogs as Array<{ dog: { id: string } }>).map(({ dog }) => dog.id);
  assert.deepEqual(await pagedIds(api, '/v2/dogs?q=rex&limit=100', dogsOf), ranked);
  // A page across the depth, and the last one.
  const across = await api.request({
    url: `/v2/dogs?q=rex&offset=${STREAMED_DEPTH - 5}&limit=10`,
    headers: { prefer: 'count=exact' },
  });
  assert.deepEqual(dogsOf(across.json()), ranked.slice(STREAMED_DEPTH - 5, STREAMED_DEPTH + 5));
  assert.equal(across.headers['x-total-count'], String(total));
  assert.match(String(across.headers.link), new RegExp(`offset=${STREAMED_DEPTH + 5}&limit=10>; rel="next"`));
  assert.match(String(across.headers.link), new RegExp(`offset=${STREAMED_DEPTH + 5}&limit=10>; rel="last"`));
  const last = await api.request({ url: `/v2/dogs?q=rex&offset=${STREAMED_DEPTH + 5}&limit=10` });
  assert.deepEqual(dogsOf(last.json()), ranked.slice(STREAMED_DEPTH + 5));
  assert.doesNotMatch(String(last.headers.link), /rel="next"/);

  // /search merges the owners in after the dogs of their tier, deep or not.
  const tierOne = tierOfEach.filter((tier) => tier === '1').length;
  const expected = [...ranked.slice(0, tierOne), ...owners.map((owner) => owner.id), ...ranked.slice(tierOne)];
  const hitsOf = (body: Record<string, unknown>) =>
    (body.results as Array<Record<string, { id: string }>>).map((hit) => Object.values(hit)[0]!.id);
  assert.deepEqual(await pagedIds(api, '/v2/search?q=rex&limit=100', hitsOf), expected);
  const deep = await api.request({ url: `/v2/search?q=rex&offset=${STREAMED_DEPTH}&limit=7` });
  assert.deepEqual(hitsOf(deep.json()), expected.slice(STREAMED_DEPTH, STREAMED_DEPTH + 7));
  // Sorted, the same search pages through every match too.
  const sorted = await api.request({ url: `/v2/dogs?q=rex&sort=name&offset=${STREAMED_DEPTH}&limit=20` });
  assert.equal(sorted.json().dogs.length, 10);
});

test('items stored before the search index get their keys when the migration that creates it runs', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rexford' });
  await create(api, 'dogs', { name: 'Rex', location: 'Tromsø' });
  await create(api, 'foods', { name: 'Kibble', brand: 'Rex' });
  // Back to the schema before migration 8, the items kept.
  for (const table of ['dogs', 'owners', 'veterinarians', 'foods']) {
    await rawRun(api.storage, `DROP TABLE ${table}_search_keys`);
    // What migration 8 drops: SQLite's FTS5 table, PostgreSQL's search columns.
    await rawRun(
      api.storage,
      api.storage.kind === 'sqlite'
        ? `CREATE VIRTUAL TABLE ${table}_fts USING fts5 (words)`
        : `ALTER TABLE ${table} ADD COLUMN search_words text NOT NULL DEFAULT '', ADD COLUMN search_vector tsvector NOT NULL DEFAULT ''`,
    );
  }
  await rawRun(api.storage, 'DELETE FROM schema_migrations WHERE version = 8');
  await api.storage.migrate();
  assert.equal(Number(await rawValue(api.storage, 'SELECT count(*) FROM schema_migrations WHERE version = 8')), 1);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=rex'), ['Rex', 'Rexford']);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=tromso'), ['Rex']);
  const search = await api.request({ url: '/v2/search?q=rex&types=foods' });
  assert.equal(search.json().results[0].food.name, 'Kibble');
});

test('an item found by several fields counts once, in its first tier, and pages read on past its other rows', async (t) => {
  const api = await build(t);
  // Each is in a name tier (1 or 2) and in tier 5 (furColor); Max only in tier 5, created last. The page of three
  // (four read) meets the others' tier-5 rows before Max's.
  for (const name of ['Bo', 'Bo Jr', 'Bobo']) await create(api, 'dogs', { name, furColor: 'Bo' });
  await create(api, 'dogs', { name: 'Max', furColor: 'Bo' });
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=bo&limit=3'), ['Bo', 'Bo Jr', 'Bobo']);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=bo&limit=3&offset=3'), ['Max']);
  assert.deepEqual(await dogNames(api, '/v2/dogs?q=bo&limit=10'), ['Bo', 'Bo Jr', 'Bobo', 'Max']);
  const page = await api.request({ url: '/v2/dogs?q=bo&limit=3' });
  assert.match(String(page.headers.link), /rel="next"/);
  assert.equal((await api.request({ url: '/v2/dogs/count?q=bo' })).json().count, 4);
});

test("a count of q alone counts the tenant's matching items once: not another tenant's, not a deleted one", async (t) => {
  const api = await build(t);
  const other = await newAccount(api.app, api.storage);
  // Rex Rexford has keys for "rex" in its name's tiers 1–4 and in its location: it counts once.
  for (const [name, location] of [
    ['Rex Rexford', 'Rexby'],
    ['Rexa', 'Oslo'],
    ['Bo', 'Rexham'],
    ['Max', 'Oslo'],
  ])
    await create(api, 'dogs', { name, location });
  const gone = await create(api, 'dogs', { name: 'Rex Gone' });
  for (const name of ['Rex', 'Rexa', 'Rex Rexford']) await create(api, 'dogs', { name }, other.token);
  assert.equal((await api.request({ method: 'DELETE', url: `/v2/dogs/${gone.id}` })).statusCode, 200);

  const count = async (q: string) => (await api.request({ url: `/v2/dogs/count?q=${encodeURIComponent(q)}` })).json();
  assert.deepEqual(await count('rex'), { count: 3 });
  assert.deepEqual(await count('REX oslo'), { count: 1 });
  assert.deepEqual(await count('rex rexford rexby'), { count: 1 });
  assert.deepEqual(await count('rex zzz'), { count: 0 });
  assert.deepEqual(await count('!!'), { count: 0 });
  // The other tenant's own count sees only its three.
  const theirs = await api.request({ url: '/v2/dogs/count?q=rex', token: other.token });
  assert.deepEqual(theirs.json(), { count: 3 });
});
