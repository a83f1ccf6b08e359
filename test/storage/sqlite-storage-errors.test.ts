// SQLite failures classified at the backend's boundary (StorageError) and answered 9002 at the HTTP edge.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { MissingReferences, StorageError } from '../../src/storage/storage-error.js';
import { sqliteFailure } from '../../src/storage/sqlite/statements.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { JsonPage } from '../../src/storage/storage.js';
import { BASE, build, newAccount } from '../helper.js';
import { databaseOf } from './sqlite-schema.js';

test('sqliteFailure: busy and locked are busy; I/O, open, full and read-only failures unavailable; the rest unchanged', () => {
  const db = new Database(':memory:');
  const cases: Array<[unknown, string | undefined]> = [
    [new Database.SqliteError('database is locked', 'SQLITE_BUSY'), 'busy'],
    [new Database.SqliteError('database table is locked', 'SQLITE_LOCKED_SHAREDCACHE'), 'busy'],
    [new Database.SqliteError('disk I/O error', 'SQLITE_IOERR_SHORT_READ'), 'unavailable'],
    [new Database.SqliteError('unable to open database file', 'SQLITE_CANTOPEN'), 'unavailable'],
    [new Database.SqliteError('database or disk is full', 'SQLITE_FULL'), 'unavailable'],
    [new Database.SqliteError('attempt to write a readonly database', 'SQLITE_READONLY'), 'unavailable'],
    [new Database.SqliteError('UNIQUE constraint failed: dogs.id', 'SQLITE_CONSTRAINT_UNIQUE'), undefined],
    [new TypeError('a bug while the database is open'), undefined],
    [new MissingReferences('ownerId', 'owners', ['nobody']), undefined],
  ];
  for (const [error, kind] of cases) {
    const classified = sqliteFailure(db, error);
    if (kind === undefined) assert.equal(classified, error);
    else {
      assert.ok(classified instanceof StorageError, `${String(error)} is a StorageError`);
      assert.equal(classified.kind, kind);
      assert.equal(classified.cause, error);
    }
  }
  db.close();
  // What better-sqlite3 throws on a closed database is a TypeError: the database's state tells it apart.
  const closed = sqliteFailure(db, new TypeError('The database connection is not open'));
  assert.ok(closed instanceof StorageError && closed.kind === 'unavailable');
});

test('a closed SQLite database answers 500 with the retryable 9002, for reads, writes and token checks', async (t) => {
  const api = await build(t);
  // The first request caches the token (5 s), so later ones reach the storage of the operation itself.
  assert.equal((await api.request({ url: '/v2/dogs' })).statusCode, 200);
  databaseOf(api.storage as SqliteStorage).close();
  const requests = [
    { url: '/v2/dogs' },
    { url: '/v2/dogs/some-id' },
    { url: '/v2/dogs/count' },
    { url: '/v2/search?q=rex' },
    { method: 'POST' as const, url: '/v2/dogs', form: { name: 'Rex' } },
    { method: 'DELETE' as const, url: '/v2/dogs/some-id' },
    { url: '/v2/dogs', token: 'a-token-not-cached-yet' },
  ];
  for (const request of requests) {
    const response = await api.request(request);
    assert.equal(response.statusCode, 500, `${request.method ?? 'GET'} ${request.url}: ${response.body}`);
    const body = response.json();
    assert.equal(body.code, 9002);
    assert.equal(body.more_info, `${BASE}/portal/errors/9002`);
    assert.match(body.message, /cannot reach its database right now\. Retry later/);
    assert.ok(body.message.includes(String(response.headers['x-request-id'])));
    assert.equal(response.headers['retry-after'], undefined);
  }
});

/** A storage whose listing finds the database busy, as the backend reports it. */
class BusyStorage extends SqliteStorage {
  override async listJson(): Promise<JsonPage> {
    throw new StorageError('busy', { cause: new Database.SqliteError('database is locked', 'SQLITE_BUSY') });
  }
}

test('a busy database answers 500 with 9002 and Retry-After: 1, in JSON and XML', async (t) => {
  const storage = new BusyStorage(':memory:');
  await storage.migrate();
  const app = await buildApp(loadConfig({ PUBLIC_URL: BASE, LOG_LEVEL: 'silent' }), { storage, logger: false });
  t.after(() => app.close());
  const { token } = await newAccount(app, storage);
  const response = await app.inject({ url: '/v2/dogs', headers: { authorization: `Bearer ${token}` } });
  assert.equal(response.statusCode, 500);
  assert.equal(response.headers['retry-after'], '1');
  const body = response.json();
  assert.equal(body.code, 9002);
  assert.match(body.message, /busy right now\. Retry in a second/);
  assert.doesNotMatch(response.body, /SQLITE|locked/);
  const xml = await app.inject({ url: '/v2/dogs.xml', headers: { authorization: `Bearer ${token}` } });
  assert.equal(xml.statusCode, 500);
  assert.equal(xml.headers['retry-after'], '1');
  assert.match(xml.body, /<code>9002<\/code>/);
});
