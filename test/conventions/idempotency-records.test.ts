// Idempotency-Key records under the storage, on both backends: the answer commits with the item, and one rule takes keys over.
import { MissingReferences } from '../../src/storage/storage-error.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { IDEMPOTENCY_ABANDONED_MS, IDEMPOTENCY_SQL, IDEMPOTENCY_TTL_MS } from '../../src/storage/idempotency-keys.js';
import type { IdempotencyKey, IdempotentWrite, TenantScope, Storage } from '../../src/storage/storage.js';
import type { NowAndThen } from '../../src/now-and-then.js';
import { build } from '../helper.js';
import { rawRun, rowsHolding } from '../raw-sql.js';

const key: IdempotencyKey = { clientId: 'client-1', key: 'k-1', fingerprint: 'body-1' };

function answering(claimed: IdempotencyKey): IdempotentWrite {
  return { key: claimed, answerFor: (item) => JSON.stringify({ status: 201, document: { dog: item } }) };
}

/** Makes the key's record look `ms` older, as if claimed that long ago. */
async function age(storage: Storage, scope: TenantScope, claimed: IdempotencyKey, ms: number): Promise<void> {
  await rawRun(storage, 'UPDATE idempotency_keys SET created_at = created_at - ? WHERE tenant_id = ? AND key = ?', [
    ms,
    scope.tenantId,
    claimed.key,
  ]);
}

test("a create with a claimed key commits the key's answer, made from its item, in the same transaction", async (t) => {
  const { storage, credentials } = await build(t);
  const scope: TenantScope = { kind: 'tenant', tenantId: credentials.tenantId };
  assert.deepEqual(await storage.claimIdempotencyKey(scope, key), { state: 'claimed' });
  const item = await storage.create(dogs, scope, { name: 'Rex' }, answering(key));
  assert.deepEqual(await storage.claimIdempotencyKey(scope, key), {
    state: 'replay',
    answer: JSON.stringify({ status: 201, document: { dog: item } }),
  });
  assert.equal(await storage.get(dogs, scope, item.id!).then((stored) => stored?.name), 'Rex');

  // With references to check and links to write (PostgreSQL: a transaction, not the single statement).
  const linked = { ...key, key: 'k-2' };
  await storage.claimIdempotencyKey(scope, linked);
  const food = await storage.create(foods, scope, { name: 'Chow' });
  const dog = await storage.create(dogs, scope, { name: 'Max', ownerId: null, foodIds: [food.id!] }, answering(linked));
  assert.deepEqual(await storage.claimIdempotencyKey(scope, linked), {
    state: 'replay',
    answer: JSON.stringify({ status: 201, document: { dog } }),
  });
  assert.equal(await rowsHolding(storage, 'dog_foods', 'dog_id', dog.id!), 1);
});

test('a create that fails commits neither the item nor the answer; the released key is free again', async (t) => {
  const { storage, credentials } = await build(t);
  const scope: TenantScope = { kind: 'tenant', tenantId: credentials.tenantId };
  await storage.claimIdempotencyKey(scope, key);
  await assert.rejects(
    storage.create(dogs, scope, { name: 'Rex', ownerId: 'ghost' }, answering(key)),
    MissingReferences,
  );
  assert.deepEqual(
    await storage.claimIdempotencyKey(scope, key),
    { state: 'pending' },
    'still claimed, with no answer',
  );
  assert.equal(await rowsHolding(storage, 'dogs', 'name', 'Rex'), 0);
  await storage.releaseIdempotencyKey(scope, key);
  assert.deepEqual(await storage.claimIdempotencyKey(scope, key), { state: 'claimed' });
});

test('one rule on both backends: a claim abandoned for a minute is taken over by the same request, an expired record by any', async (t) => {
  const { storage, credentials } = await build(t);
  const scope: TenantScope = { kind: 'tenant', tenantId: credentials.tenantId };
  await storage.claimIdempotencyKey(scope, key);
  await age(storage, scope, key, IDEMPOTENCY_ABANDONED_MS - 5_000);
  assert.deepEqual(await storage.claimIdempotencyKey(scope, key), { state: 'pending' }, 'not yet abandoned');
  await age(storage, scope, key, 10_000);
  assert.deepEqual(
    await storage.claimIdempotencyKey(scope, { ...key, fingerprint: 'body-2' }),
    { state: 'mismatch' },
    'another request never takes it over',
  );
  assert.deepEqual(
    await storage.claimIdempotencyKey(scope, key),
    { state: 'claimed' },
    'abandoned: the same request takes it over',
  );
  await storage.completeIdempotencyKey(scope, key, '{"status":201}');
  await age(storage, scope, key, IDEMPOTENCY_TTL_MS + 1_000);
  assert.deepEqual(
    await storage.claimIdempotencyKey(scope, { ...key, fingerprint: 'body-2' }),
    { state: 'claimed' },
    'expired, even before a sweep deletes it',
  );
});

test('expired records are swept on a claim, at most once a minute per process', async (t) => {
  const { storage, credentials } = await build(t);
  const scope: TenantScope = { kind: 'tenant', tenantId: credentials.tenantId };
  const old = { ...key, key: 'old' };
  await storage.claimIdempotencyKey(scope, old);
  await age(storage, scope, old, IDEMPOTENCY_TTL_MS + 1_000);
  await storage.claimIdempotencyKey(scope, { ...key, key: 'new-1' });
  assert.equal(
    await rowsHolding(storage, 'idempotency_keys', 'key', 'old'),
    1,
    'this process swept on its first claim, before the record expired',
  );
  (storage as unknown as { idempotency: { sweeps: NowAndThen } }).idempotency.sweeps.reset();
  await storage.claimIdempotencyKey(scope, { ...key, key: 'new-2' });
  assert.equal(
    await rowsHolding(storage, 'idempotency_keys', 'key', 'old'),
    0,
    'a minute later, the next claim sweeps',
  );
});

test('each shared statement uses $1…$n once and in order, so SQLite binds the same parameters to `?`', () => {
  for (const [name, sql] of Object.entries(IDEMPOTENCY_SQL)) {
    const marks = [...sql.matchAll(/\$(\d+)/g)].map((match) => Number(match[1]));
    assert.deepEqual(
      marks,
      marks.map((_, index) => index + 1),
      name,
    );
  }
});
