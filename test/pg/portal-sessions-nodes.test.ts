import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { createDatabase, skipWithoutPostgres as skip } from './databases.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { csrfOf, getPage, logIn, signUp } from '../portal/portal-helper.js';

test('a second node on the same PostgreSQL sees a login and a logout made on the first', { skip }, async (t) => {
  const database = await createDatabase();
  t.after(() => database.drop());
  const firstStorage = new PostgresStorage(database.url);
  await firstStorage.migrate();
  const first = await build(t, {}, firstStorage);
  const second = await build(t, {}, new PostgresStorage(database.url));

  await signUp(first, 'ann@example.com');
  const cookie = await logIn(first, 'ann@example.com');
  const seen = await getPage(second, '/portal/dashboard', cookie);
  assert.equal(seen.statusCode, 200);
  assert.match(seen.body, /Logged in as <strong>ann@example.com<\/strong>/);

  const logout = await second.app.inject({
    method: 'POST',
    url: '/portal/logout',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: `csrf=${encodeURIComponent(csrfOf(seen.body))}`,
  });
  assert.equal(logout.statusCode, 303);
  assert.equal((await getPage(first, '/portal/dashboard', cookie)).statusCode, 303, 'the first node sees the logout');
});
