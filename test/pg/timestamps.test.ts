// PostgreSQL's timestamps reach the service as RFC 3339 UTC with milliseconds, the text SQLite keeps, whatever the
// server's time zone and date style: the connection reads timestamptz's plain text (connection.ts rfc3339).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { Connection, rfc3339 } from '../../src/storage/postgres/connection.js';
import type { TenantScope } from '../../src/storage/storage.js';
import { createDatabase, createPostgresStorage, skipWithoutPostgres } from './databases.js';

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
