// A sort by name or by creation time reads its page through an index, in both directions (SQLite; PostgreSQL's plans
// are checked at 100,000 dogs by test/pg/plans.test.ts). Other sorts sort the tenant's items, as docs/decisions.md says.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { SORT_INDEXED } from '../../src/resources/definition.js';
import { resources } from '../../src/resources/index.js';
import type { Statements } from '../../src/storage/sqlite/statements.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import type { TenantScope } from '../../src/storage/storage.js';

const scope: TenantScope = { kind: 'tenant', tenantId: 'tenant-a' };

/** The plan of the statement a sorted list page runs (captured from the storage, not a copy of its SQL). */
async function planOf(storage: SqliteStorage, resource: string, field: string, descending: boolean): Promise<string[]> {
  const statements = (storage as unknown as { statements: Statements }).statements;
  const db = (storage as unknown as { db: Database.Database }).db;
  const def = resources.find((candidate) => candidate.name === resource)!;
  const issued: Array<{ sql: string; params: unknown[] }> = [];
  const pluck = statements.pluck.bind(statements);
  statements.pluck = (sql: string) => {
    const statement = pluck(sql);
    return new Proxy(statement, {
      get: (target, name) =>
        name === 'all'
          ? (...params: unknown[]) => (issued.push({ sql, params }), target.all(...params))
          : Reflect.get(target, name),
    });
  };
  try {
    await storage.listJson(def, scope, { filters: [], limit: 10, offset: 0, sort: { field, descending } }, ['id']);
  } finally {
    statements.pluck = pluck;
  }
  assert.equal(issued.length, 1, `${resource}?sort=${field}: one statement`);
  const { sql, params } = issued[0]!;
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((row) => row.detail);
}

test('sort by name or createdAt, either way, reads an index; only runs of equal keys are put in creation order', async (t) => {
  const storage = new SqliteStorage(':memory:');
  t.after(() => storage.close());
  await storage.migrate();
  for (const def of resources) {
    for (const field of SORT_INDEXED) {
      for (const descending of [false, true]) {
        const label = `${def.name}?sort=${descending ? '-' : ''}${field}`;
        const plan = await planOf(storage, def.name, field, descending);
        const index = field === 'name' ? `${def.name}_name_order` : `${def.name}_created`;
        assert.ok(
          plan.some((line) => line.startsWith(`SEARCH t USING INDEX ${index} (tenant_id=?)`)),
          `${label}: ${plan.join(' | ')}`,
        );
        // A whole sort would say "USE TEMP B-TREE FOR ORDER BY"; ties (equal names) may be ordered by seq.
        assert.ok(!plan.includes('USE TEMP B-TREE FOR ORDER BY'), `${label}: ${plan.join(' | ')}`);
      }
    }
  }
});

test('the sorted pages are those of the whole sort: ties in creation order, both directions', async (t) => {
  const storage = new SqliteStorage(':memory:');
  t.after(() => storage.close());
  await storage.migrate();
  const dogs = resources.find((def) => def.name === 'dogs')!;
  const names = ['bella', 'Rex', 'ada', 'rex', 'Bella', 'zed', 'REX'];
  const created: string[] = [];
  for (const name of names) created.push((await storage.create(dogs, scope, { name })).id as string);
  const page = async (descending: boolean, offset: number) =>
    (await storage.list(dogs, scope, { filters: [], limit: 3, offset, sort: { field: 'name', descending } })).items.map(
      (item) => item.name,
    );
  // Case-insensitive by code point, equal names in creation order in either direction (SPEC: ties keep creation order).
  assert.deepEqual(
    [...(await page(false, 0)), ...(await page(false, 3)), ...(await page(false, 6))],
    ['ada', 'bella', 'Bella', 'Rex', 'rex', 'REX', 'zed'],
  );
  assert.deepEqual(
    [...(await page(true, 0)), ...(await page(true, 3)), ...(await page(true, 6))],
    ['zed', 'Rex', 'rex', 'REX', 'bella', 'Bella', 'ada'],
  );
});
