// Two nodes on one PostgreSQL: a secret rotated and an app deleted on one are seen by the other (SPEC §12, §7's 5 s).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { createDatabase, skipWithoutPostgres as skip } from './databases.js';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { logIn, signUp } from '../portal/portal-helper.js';
import { postForm, shownCredentials, tokenRequest } from '../portal/apps-helper.js';

const APP = { name: 'Kennel sync', redirect_uris: 'https://app.example/cb', scopes: ['read'], type: 'confidential' };

test('a second node refuses a rotated secret at once and a deleted app within 5 s', { skip }, async (t) => {
  const database = await createDatabase();
  t.after(() => database.drop());
  const firstStorage = new PostgresStorage(database.url);
  await firstStorage.migrate();
  let now = Date.now();
  const clock = { clock: () => now };
  const first = await build(t, {}, firstStorage, clock);
  const second = await build(t, {}, new PostgresStorage(database.url), clock);
  await signUp(first, 'ann@example.com');
  const cookie = await logIn(first, 'ann@example.com');
  const { clientId, secret } = shownCredentials((await postForm(first, 'apps', cookie, APP)).body);

  const rotated = await postForm(first, 'apps/rotate', cookie, { client_id: clientId });
  const fresh = shownCredentials(rotated.body).secret!;
  assert.equal((await tokenRequest(second, clientId, secret!)).statusCode, 401, 'the old secret, on the second node');
  const token = await tokenRequest(second, clientId, fresh);
  assert.equal(token.statusCode, 200, token.body);
  const accessToken = token.json().access_token as string;
  assert.equal((await second.request({ url: '/v2/dogs', token: accessToken })).statusCode, 200);

  assert.equal((await postForm(first, 'apps/delete', cookie, { client_id: clientId })).statusCode, 200);
  now += 5000;
  assert.equal((await second.request({ url: '/v2/dogs', token: accessToken })).statusCode, 401);
  assert.equal((await tokenRequest(second, clientId, fresh)).statusCode, 401);
});
