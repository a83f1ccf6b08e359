// PostgreSQL's timestamps reach the service as RFC 3339 UTC with milliseconds, the text SQLite keeps, whatever the
// server's time zone and date style: an item's are stored as that text (migration 13), and the connection reads any
// other timestamptz's plain text (connection.ts rfc3339).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { Connection, rfc3339 } from '../../src/storage/postgres/connection.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { createDatabase, createPostgresStorage, postgresStorageFor, skipWithoutPostgres } from './databases.js';

const skip = skipWithoutPostgres;
const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };

test('rfc3339: milliseconds always three digits, finer digits cut as to_char(…, MS) cut them', () => {
  assert.equal(rfc3339('2026-11-26 04:21:44.818+00'), '2026-11-26T04:21:44.818Z');
  assert.equal(rfc3339('2026-11-26 04:21:44.8+00'), '2026-11-26T04:21:44.800Z');
  assert.equal(rfc3339('2026-11-26 04:21:44.05+00'), '2026-11-26T04:21:44.050Z');
  assert.equal(rfc3339('2026-11-26 04:21:44+00'), '2026-11-26T04:21:44.000Z');
  assert.equal(rfc3339('2026-11-26 04:21:44.818999+00'), '2026-11-26T04:21:44.818Z');
});

test(
  'a connection reads timestamptz in UTC even where the session would default to another zone and date style',
  { skip },
  async (t) => {
    const database = await createDatabase();
    const url = new URL(database.url);
    url.searchParams.set('options', `${url.searchParams.get('options')} -c TimeZone=Asia/Kolkata -c DateStyle=SQL,DMY`);
    const db = new Connection(url.toString(), { poolSize: 1 });
    t.after(async () => {
      await db.close();
      await database.drop();
    });
    const [row] = await db.rows<string[]>(
      `SELECT timestamptz '2026-11-26 04:21:44.818Z', timestamptz '2026-11-26 04:21:44.8Z',
        timestamptz '2026-11-26 23:59:59Z', timestamptz '2026-11-26 10:00:00.123456+05:30', now()::text LIKE '%+00'`,
      [],
    );
    assert.deepEqual(row, [
      '2026-11-26T04:21:44.818Z',
      '2026-11-26T04:21:44.800Z',
      '2026-11-26T23:59:59.000Z',
      '2026-11-26T04:30:00.123Z',
      true,
    ]);
    // A timestamptz parameter given as text goes as it is.
    const [[same]] = await db.rows<[boolean]>(`SELECT $1::timestamptz = timestamptz '2026-11-26 04:21:44.8Z'`, [
      '2026-11-26T04:21:44.800Z',
    ]);
    assert.equal(same, true);
  },
);

test(
  'an item reads back the timestamps its create answered, byte for byte, in GET and in a page',
  { skip },
  async (t) => {
    const { storage, database } = await createPostgresStorage();
    t.after(async () => {
      await storage.close();
      await database.drop();
    });
    const created = await storage.create(dogs, scope, { name: 'Rex' });
    assert.match(String(created.createdAt), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const read = await storage.get(dogs, scope, created.id!);
    assert.equal(read?.createdAt, created.createdAt);
    assert.equal(read?.updatedAt, created.updatedAt);
    const page = await storage.list(dogs, scope, { filters: [], limit: 10, offset: 0 });
    assert.equal(page.items[0]?.createdAt, created.createdAt);
  },
);

test(
  "migration 13 keeps an item's timestamps as RFC 3339 text, cut to the millisecond, in the order of their times",
  { skip },
  async (t) => {
    const storage = await postgresStorageFor(t);
    const db = (storage as unknown as { db: Connection }).db;
    const created = [];
    for (const name of ['First', 'Second', 'Third']) created.push(await storage.create(dogs, scope, { name }));
    // The schema and rows as they were before migration 13, one timestamp finer than a millisecond and in another zone.
    for (const table of ['dogs', 'owners', 'veterinarians', 'foods']) {
      await db.run(
        `ALTER TABLE ${table} ALTER COLUMN created_at TYPE timestamptz USING created_at::timestamptz,
          ALTER COLUMN updated_at TYPE timestamptz USING updated_at::timestamptz`,
        [],
      );
    }
    await db.run(`UPDATE dogs SET updated_at = timestamptz '2030-01-02 03:04:05.678999+02:00' WHERE id = $1`, [
      created[2]!.id,
    ]);
    // A second apart, in creation order (three creates may share a millisecond).
    for (const [index, dog] of created.entries()) {
      await db.run(
        `UPDATE dogs SET created_at = timestamptz '2026-01-01 00:00:00Z' + $1 * interval '1 second' WHERE id = $2`,
        [index, dog.id],
      );
    }
    await db.run('DELETE FROM schema_migrations WHERE version = 13', []);

    await storage.migrate();
    const [[type]] = await db.rows<[string]>(
      `SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema()
        AND table_name = 'dogs' AND column_name = 'created_at'`,
      [],
    );
    assert.equal(type, 'text');
    assert.deepEqual(await storage.get(dogs, scope, created[1]!.id!), {
      ...created[1],
      createdAt: '2026-01-01T00:00:01.000Z',
    });
    assert.deepEqual(await storage.get(dogs, scope, created[2]!.id!), {
      ...created[2],
      createdAt: '2026-01-01T00:00:02.000Z',
      updatedAt: '2030-01-02T01:04:05.678Z',
    });
    const newest = await storage.list(dogs, scope, {
      filters: [],
      sort: { field: 'createdAt', descending: true },
      limit: 3,
      offset: 0,
    });
    assert.deepEqual(
      newest.items.map((dog) => dog.name),
      ['Third', 'Second', 'First'],
    );
  },
);
