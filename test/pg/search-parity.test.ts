// Both backends find the same items for the same data and query (SPEC §5), and filter and sort alike.
import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import type { Filter, Sort } from '../../src/query/collection.js';
import type { ResourceDef, WriteValues } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { resources } from '../../src/resources/index.js';
import { owners } from '../../src/resources/owners.js';
import { veterinarians } from '../../src/resources/veterinarians.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { PUBLIC_SCOPE, type Scope, type Storage, type TenantScope } from '../../src/storage/storage.js';
import { createPostgresStorage, skipWithoutPostgres } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const other: TenantScope = { kind: 'tenant', tenantId: 'tenant-b' };

/** Names are unique, so items compare by name across backends (ids are random). */
const DATA: Array<[ResourceDef, WriteValues, TenantScope?]> = [
  [dogs, { name: 'Rex', furColor: 'Brown', location: 'Tromsø', state: 'adoptable' }],
  [dogs, { name: 'Rexford', furColor: 'black', location: 'Oslo' }],
  [dogs, { name: 'rex junior', furColor: null, location: 'oslo' }],
  [dogs, { name: 'Max', furColor: 'Brown-White', location: 'Straße 5' }],
  [dogs, { name: 'Bella', furColor: null, location: 'Ærøskøbing', state: 'adoptable' }],
  [dogs, { name: 'Łucja', furColor: 'GREY', location: 'Kraków' }],
  [dogs, { name: 'Ďábel', furColor: 'grey', location: 'Đakovo' }],
  [dogs, { name: '東京', furColor: 'white', location: 'Tokyo' }],
  [dogs, { name: 'R2D2', furColor: 'silver', location: 'Mos Eisley' }],
  [dogs, { name: 'Ilık', furColor: 'İvory', location: 'İstanbul' }],
  [dogs, { name: 'Œdipe', furColor: 'noir', location: 'Paris' }],
  [dogs, { name: 'café crème', furColor: 'Crème', location: 'Montréal' }],
  [dogs, { name: 'ＦＵＬＬ Width', furColor: 'brown', location: 'Tromsø' }],
  [dogs, { name: 'Other tenant Rex', furColor: 'brown', location: 'Tromsø', state: 'adoptable' }, other],
  [owners, { name: 'Ann Berg', email: 'ann@example.com', location: 'Oslo' }],
  [owners, { name: 'Rex Owner', email: 'rex.owner@tromso.no', location: 'Bodø' }],
  [veterinarians, { name: 'Dr. Lund', clinic: 'Oslo Dyreklinikk', location: 'Oslo' }],
  [veterinarians, { name: 'Dr. Rexhepi', clinic: null, location: 'Tromsø' }],
  [foods, { name: 'Puppy Chow', brand: 'Purina' }],
  [foods, { name: 'Rex Kibble', brand: 'Acme 3000' }],
];

const QUERIES = [
  'rex',
  'Rex',
  'REX',
  'r',
  'rexf',
  'rex oslo',
  'oslo rex',
  'rex tromso',
  'rex junior',
  'junior rex',
  'rex junior oslo',
  'oslo rex junior',
  'rex brown tromso',
  'dr lund oslo',
  'tromso',
  'Tromsø',
  'TROMSØ',
  'tro',
  'troms',
  'bodo',
  'brown',
  'brown white',
  'white',
  'strasse',
  'Straße',
  'strass',
  '5',
  'aeroskobing',
  'Ærø',
  'aero',
  'lucja',
  'Łucja',
  'krakow',
  'dabel',
  'dakovo',
  'đakovo',
  '東京',
  '東',
  '京',
  'r2d2',
  'r2',
  'd2',
  'ilik',
  'ılık',
  'istanbul',
  'ivory',
  'oedipe',
  'œdipe',
  'cafe',
  'creme',
  'café crème',
  'montreal',
  'full',
  'ｆｕｌｌ',
  'width',
  'example com',
  'ann@example.com',
  'ann',
  'puppy',
  'acme 3000',
  '3000',
  '300',
  'dr lund',
  'oslo dyreklinikk',
  'o',
  'nothing',
  'rex nothing',
  'other',
];

/** The same data written in the same order into an in-memory SQLite and a fresh PostgreSQL database. */
async function bothBackends(t: TestContext): Promise<Array<[string, Storage]>> {
  const sqlite = new SqliteStorage(':memory:');
  await sqlite.migrate();
  const { storage: postgres, database } = await createPostgresStorage();
  t.after(async () => {
    await sqlite.close();
    await postgres.close();
    await database.drop();
  });
  for (const storage of [sqlite, postgres]) {
    for (const [def, values, owner] of DATA) await storage.create(def, owner ?? scope, values);
  }
  return [
    ['sqlite', sqlite],
    ['postgres', postgres],
  ];
}

async function names(
  storage: Storage,
  def: ResourceDef,
  options: { q?: string; filters?: Filter[]; sort?: Sort; in?: Scope },
): Promise<string[]> {
  const page = await storage.list(def, options.in ?? scope, {
    filters: options.filters ?? [],
    q: options.q,
    sort: options.sort,
    limit: 100,
    offset: 0,
  });
  return page.items.map((item) => String(item.name));
}

test(
  'every query finds the same items on SQLite and PostgreSQL, resource by resource and in the global search',
  { skip: skipWithoutPostgres },
  async (t) => {
    const [[, sqlite], [, postgres]] = await bothBackends(t);
    for (const q of QUERIES) {
      for (const def of resources) {
        // The same items in the same order (SPEC §5's tiers, then creation order), and a count of exactly them.
        const expected = await names(sqlite!, def, { q });
        assert.deepEqual(await names(postgres!, def, { q }), expected, `${def.name}?q=${q}`);
        for (const storage of [sqlite!, postgres!]) {
          assert.equal(
            await storage.count(def, scope, { filters: [], q }),
            expected.length,
            `${storage.kind} ${def.name}/count?q=${q}`,
          );
        }
      }
      const search = async (storage: Storage, limit = 100, offset = 0) =>
        (await storage.search(scope, { q, types: resources, limit, offset })).hits.map(
          (hit) => `${hit.def.singular}:${String(hit.item.name)}`,
        );
      const whole = await search(sqlite!);
      assert.deepEqual(await search(postgres!), whole, `/search?q=${q}`);
      // First pages, one at a time, join into the same order on both.
      for (const storage of [sqlite!, postgres!]) {
        const pages = [...(await search(storage, 2, 0)), ...(await search(storage, 2, 2))];
        assert.deepEqual(pages, whole.slice(0, 4), `${storage.kind} /search?q=${q}&limit=2`);
      }
    }
  },
);

test(
  "the folding is the service's own: Tromsø by tromso, prefixes, every word, never another tenant",
  { skip: skipWithoutPostgres },
  async (t) => {
    for (const [backend, storage] of await bothBackends(t)) {
      const found = (q: string, def: ResourceDef = dogs) => names(storage, def, { q }).then((list) => list.sort());
      assert.deepEqual(await found('tromso'), ['Rex', 'ＦＵＬＬ Width'], backend);
      assert.deepEqual(await found('TROMSØ', owners), ['Rex Owner'], `${backend}: the email's words are searched`);
      assert.deepEqual(await found('rex'), ['Rex', 'Rexford', 'rex junior'], `${backend}: exact or prefix`);
      // In tiers: the whole name, then names that start with it, creation order within a tier.
      assert.deepEqual(await names(storage, dogs, { q: 'REX' }), ['Rex', 'Rexford', 'rex junior'], backend);
      assert.deepEqual(await names(storage, dogs, { q: 'tromsø' }), ['Rex', 'ＦＵＬＬ Width'], backend);
      assert.deepEqual(
        (await storage.search(scope, { q: 'rex', types: resources, limit: 100, offset: 0 })).hits.map(
          (hit) => `${hit.def.singular}:${String(hit.item.name)}`,
        ),
        ['dog:Rex', 'dog:Rexford', 'dog:rex junior', 'owner:Rex Owner', 'food:Rex Kibble', 'veterinarian:Dr. Rexhepi'],
        `${backend}: /search merges by tier, then resource`,
      );
      assert.deepEqual(await found('rex oslo'), ['Rexford', 'rex junior'], `${backend}: every word must match`);
      assert.deepEqual(await found('strasse'), ['Max'], `${backend}: ß is ss`);
      assert.deepEqual(await found('aeroskobing'), ['Bella'], `${backend}: æ is ae, ø is o`);
      assert.deepEqual(await found('d2'), [], `${backend}: a word matches from its start only`);
      assert.deepEqual(await found('full'), ['ＦＵＬＬ Width'], `${backend}: NFKD folds full-width letters`);
      assert.deepEqual(await found('other'), [], `${backend}: another tenant's dog is not found`);
    }
  },
);

test(
  'filters compare case-insensitively and sorts order alike, nulls first, ties in creation order',
  { skip: skipWithoutPostgres },
  async (t) => {
    const [[, sqlite], [, postgres]] = await bothBackends(t);
    const cases: Array<{ def: ResourceDef; filters?: Filter[]; sort?: Sort; q?: string }> = [
      { def: dogs, sort: { field: 'name', descending: false } },
      { def: dogs, sort: { field: 'name', descending: true } },
      { def: dogs, sort: { field: 'furColor', descending: false } },
      { def: dogs, sort: { field: 'furColor', descending: true } },
      { def: dogs, sort: { field: 'location', descending: false } },
      { def: dogs, filters: [{ field: 'furColor', values: ['brown'] }] },
      {
        def: dogs,
        filters: [{ field: 'furColor', values: ['grey', 'white'] }],
        sort: { field: 'name', descending: false },
      },
      {
        def: dogs,
        filters: [
          { field: 'location', values: ['oslo', 'tromsø'] },
          { field: 'furColor', values: ['brown', 'black'] },
        ],
      },
      { def: dogs, filters: [{ field: 'state', values: ['adoptable'], exact: true }], q: 'rex' },
      { def: veterinarians, filters: [{ field: 'clinic', values: ['oslo dyreklinikk'] }] },
      { def: owners, sort: { field: 'email', descending: true } },
    ];
    for (const options of cases) {
      assert.deepEqual(
        await names(postgres!, options.def, options),
        await names(sqlite!, options.def, options),
        JSON.stringify(options),
      );
    }
    const adoptable = { filters: [{ field: 'state', values: ['adoptable'], exact: true }], in: PUBLIC_SCOPE };
    assert.deepEqual(
      await names(postgres!, dogs, adoptable),
      ['Rex', 'Bella', 'Other tenant Rex'],
      'the open listing sees every tenant',
    );
    assert.deepEqual(await names(sqlite!, dogs, adoptable), ['Rex', 'Bella', 'Other tenant Rex']);
  },
);
