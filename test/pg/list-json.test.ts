// PostgreSQL's listJson: each page's JSON texts are exactly what JSON.stringify writes for the items' fields.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { representedFields } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { owners } from '../../src/resources/owners.js';
import { jsonPage } from '../../src/storage/items.js';
import type { ListQuery, TenantScope } from '../../src/storage/storage.js';
import { AWKWARD, picked } from '../storage/json-texts.js';
import { postgresStorageFor, skipWithoutPostgres } from './databases.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };
const everything: ListQuery = { filters: [], limit: 100, offset: 0 };

test(
  'PostgreSQL writes each row exactly as JSON.stringify does for the item, without making the item',
  { skip: skipWithoutPostgres },
  async (t) => {
    const store = await postgresStorageFor(t);
    // PostgreSQL's text holds neither NUL nor a lone surrogate (UTF-8): every other awkward character.
    const texts = AWKWARD.filter((text) => !text.includes('\ud800')).map((text) => text.replace('\u0000', ''));
    for (const text of texts) await store.create(dogs, scope, { name: `n${text}`, furColor: text, location: null });
    const { items } = await store.list(dogs, scope, everything);
    assert.equal(items.length, texts.length);
    for (const fields of [representedFields(dogs), ['location', 'name', 'id'], ['furColor'], []]) {
      const page = await store.listJson(dogs, scope, everything, fields);
      assert.deepEqual(
        page.items,
        items.map((item) => picked(item, fields)),
        `fields ${fields.join(',')}`,
      );
      assert.deepEqual(jsonPage({ items, hasMore: false }, fields), page);
    }
    const colors = { filters: [{ field: 'furColor', values: [texts[0]!, texts[1]!] }], limit: 10, offset: 0 };
    assert.deepEqual(
      (await store.listJson(dogs, scope, colors, ['furColor', 'name'])).items,
      (await store.list(dogs, scope, colors)).items.map((item) => picked(item, ['furColor', 'name'])),
      'several filter values read the fields through their LATERAL ranges',
    );
    await assert.rejects(store.listJson(owners, scope, everything, ["name', 1, 'x"]), /not a field name/);
    await assert.rejects(store.listJson(owners, scope, everything, ['secret']), /not a field name/);
    const paged = await store.listJson(dogs, scope, { filters: [], limit: 2, offset: 1 }, ['name']);
    assert.deepEqual(paged, { items: items.slice(1, 3).map((item) => picked(item, ['name'])), hasMore: true });
  },
);

test(
  'a ranked page with fields reads only those and the searchable ones, and gives the page a whole read gives',
  { skip: skipWithoutPostgres },
  async (t) => {
    const store = await postgresStorageFor(t);
    const places = ['Oslo', 'Bergen', 'Rexburg'];
    for (let n = 0; n < 30; n += 1) {
      await store.create(dogs, scope, {
        name: n % 3 === 0 ? `Rex ${n}` : n % 3 === 1 ? `Bella Rex ${n}` : `Rexy ${n}`,
        furColor: n % 2 ? 'brown' : 'black',
        location: places[n % 3]!,
      });
    }
    const statements: string[] = [];
    const db = (store as unknown as { db: { send: (...args: unknown[]) => unknown } }).db;
    const send = db.send.bind(db);
    db.send = (target: unknown, sql: unknown, params: unknown) => {
      statements.push(String(sql));
      return send(target, sql, params);
    };
    for (const q of ['rex', 're', 'r', 'rex oslo', 'bella rex', 'rexburg']) {
      for (const [offset, limit] of [
        [0, 5],
        [4, 7],
        [0, 40],
      ] as const) {
        const query: ListQuery = { filters: [], q, limit, offset };
        const whole = await store.list(dogs, scope, query);
        for (const fields of [['id', 'name'], ['furColor'], ['createdAt', 'location', 'id'], []]) {
          statements.length = 0;
          const page = await store.listJson(dogs, scope, query, fields);
          assert.deepEqual(page, jsonPage(whole, fields), `q=${q} offset ${offset} limit ${limit} fields ${fields}`);
          // The item columns read: the fields asked for and the searchable ones, never the timestamps unasked.
          if (!fields.includes('createdAt')) for (const sql of statements) assert.doesNotMatch(sql, /created_at/);
        }
      }
    }
  },
);
