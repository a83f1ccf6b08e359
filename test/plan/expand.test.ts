// Associations loaded level by level (plan/expand.ts), against a storage that only answers fetchRelated: each key read
// once, parents read in chunks the budget left can hold, and every parent given its related items.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expand, relatedOf } from '../../src/plan/expand.js';
import { resolveFields } from '../../src/query/selection.js';
import type { Item } from '../../src/resources/definition.js';
import { resourceByName } from '../../src/resources/index.js';
import { owners } from '../../src/resources/owners.js';
import type { Storage, TenantScope } from '../../src/storage/storage.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 't' };

/** Each owner has `dogs` dogs of its own; the keys of each call are kept. */
function storageOf(dogs: number): { storage: Storage; calls: string[][] } {
  const calls: string[][] = [];
  const storage = {
    async fetchRelated(_association: unknown, _scope: unknown, keys: readonly string[]) {
      calls.push([...keys]);
      return new Map(
        keys.map((key) => [key, Array.from({ length: dogs }, (_, at): Item => ({ id: `${key}-d${at}`, name: 'Rex' }))]),
      );
    },
  } as unknown as Storage;
  return { storage, calls };
}

test("a level's parents are read in chunks the budget can hold, each once, and every parent gets its items", async () => {
  const { storage, calls } = storageOf(3);
  // The same owner twice on the page, as a nested level may have it: read once, given to both.
  const items: Item[] = Array.from({ length: 1200 }, (_, at) => ({ id: `o${at}` }));
  items.push({ id: 'o0' });
  await expand(storage, owners, scope, items, resolveFields(owners, 'dogs(name)', resourceByName));
  // 50,000 items of budget at 100 a parent: 500 parents a read, then what is left (48,497 after o0's three twice).
  assert.deepEqual(
    calls.map((keys) => keys.length),
    [500, 484, 216],
  );
  assert.equal(new Set(calls.flat()).size, 1200);
  for (const item of items) assert.equal((relatedOf(item, 'dogs') as Item[]).length, 3, String(item.id));
  assert.equal(relatedOf(items[0]!, 'dogs'), relatedOf(items[1200]!, 'dogs'));
});

test('past the budget, the next chunk is not read: the 400 comes after about as much as the budget', async () => {
  const { storage, calls } = storageOf(100);
  const items: Item[] = Array.from({ length: 1200 }, (_, at) => ({ id: `o${at}` }));
  await assert.rejects(
    expand(storage, owners, scope, items, resolveFields(owners, 'dogs(name)', resourceByName))!,
    (error: { name?: string; code?: number }) => error.code === 2011,
  );
  // 500 parents of 100 dogs fill the budget exactly; the next chunk (of 100, the least) passes it.
  assert.deepEqual(
    calls.map((keys) => keys.length),
    [500, 100],
  );
});
