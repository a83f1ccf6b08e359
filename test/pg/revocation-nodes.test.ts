// Two nodes on one PostgreSQL database: a token revoked on one is refused by the other within 5 s (SPEC §7), with margin.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import { build } from '../helper.js';
import { createPostgresStorage, skipWithoutPostgres } from './databases.js';

test('a token revoked on node A is refused by node B in under 5 s', { skip: skipWithoutPostgres }, async (t) => {
  const { storage, database } = await createPostgresStorage();
  t.after(() => database.drop());
  const nodeA = await build(t, {}, storage);
  const nodeB = await build(t, {}, new PostgresStorage(database.url));
  const { clientId, clientSecret, token } = nodeA.credentials;

  // Node B checks the token and caches its verdict just before the revocation: the worst case.
  assert.equal((await nodeB.request({ url: '/v2/dogs', token })).statusCode, 200);
  const revokedAt = performance.now();
  const revoke = await nodeA.request({
    method: 'POST',
    url: '/oauth2/revoke',
    token: null,
    form: { token },
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString('base64')}` },
  });
  assert.equal(revoke.statusCode, 200);
  assert.equal((await nodeA.request({ url: '/v2/dogs', token })).statusCode, 401, 'node A refuses it at once');

  let refusedAfter: number | undefined;
  while (performance.now() - revokedAt < 6000) {
    const answer = await nodeB.request({ url: '/v2/dogs', token });
    if (answer.statusCode === 401) {
      refusedAfter = performance.now() - revokedAt;
      assert.match(String(answer.headers['www-authenticate']), /error="invalid_token"/);
      break;
    }
    assert.equal(answer.statusCode, 200);
    await sleep(100);
  }
  assert.ok(refusedAfter !== undefined, 'node B never refused the revoked token');
  assert.ok(refusedAfter < 5000, `node B refused it after ${Math.round(refusedAfter)} ms`);
  // Node B's cache did hold the verdict for a while: the refusal came from its recheck, not a first lookup.
  assert.ok(refusedAfter > 3000, `node B refused it after only ${Math.round(refusedAfter)} ms`);
});
