// A count with criteria reads through the index of its filter or parent, never the whole table (both backends).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { columnOf, representedFields } from '../../src/resources/definition.js';
import { resources } from '../../src/resources/index.js';
import type { Connection } from '../../src/storage/postgres/connection.js';
import type { Statements } from '../../src/storage/sqlite/statements.js';
import { build, createItem as create, type TestApp } from '../helper.js';

interface Issued {
  readonly sql: string;
  readonly params: readonly unknown[];
}

/** Every count(*) statement the storage issues from now on, with its parameters. */
function recordCounts(api: TestApp): Issued[] {
  const issued: Issued[] = [];
  if (api.storage.kind === 'sqlite') {
    const statements = (api.storage as unknown as { statements: Statements }).statements;
    const pluck = statements.pluck.bind(statements);
    statements.pluck = (sql: string) => {
      const statement = pluck(sql);
      if (!sql.startsWith('SELECT count(*)')) return statement;
      return new Proxy(statement, {
        get: (target, name) =>
          name === 'get'
            ? (...params: unknown[]) => (issued.push({ sql, params }), target.get(...params))
            : Reflect.get(target, name),
      });
    };
  } else {
    const db = (api.storage as unknown as { db: Connection }).db;
    const rows = db.rows.bind(db);
    db.rows = <Row extends unknown[]>(sql: string, params: readonly unknown[]) => {
      if (sql.startsWith('SELECT count(*)')) issued.push({ sql, params });
      return rows<Row>(sql, params);
    };
  }
  return issued;
}

/** The plan's lines that read a whole table, index or tenant: SQLite's SCAN, PostgreSQL's Seq Scan or tenant range. */
async function fullScans(api: TestApp, { sql, params }: Issued): Promise<string[]> {
  if (api.storage.kind === 'sqlite') {
    const db = (api.storage as unknown as { db: Database.Database }).db;
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map(
      (row) => row.detail,
    );
    // A subquery's rows (CO-ROUTINE k, then SCAN k) are the rows it read, not a table.
    const subqueries = plan.flatMap((detail) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)$/.exec(detail)?.[1] ?? []);
    return plan.filter((detail) => /^SCAN /.test(detail) && !subqueries.includes(detail.slice(5)));
  }
  // Sequential scans priced out: a plan keeps one only when no index can serve the statement.
  const db = (api.storage as unknown as { db: Connection }).db;
  const lines = await db.transaction(async (tx) => {
    await tx.run('SET LOCAL enable_seqscan = off', []);
    return (await tx.rows<[string]>(`EXPLAIN ${sql}`, params)).map((row) => row[0]);
  });
  const partial = (
    await db.rows<[string]>('SELECT indexrelid::regclass::text FROM pg_index WHERE indpred IS NOT NULL', [])
  ).map((row) => row[0]);
  const faults: string[] = [];
  lines.forEach((line, index) => {
    if (/Seq Scan/.test(line)) faults.push(line.trim());
    const scan = /Index (?:Only )?Scan using (\w+)|Bitmap Index Scan on (\w+)/.exec(line);
    if (!scan) return;
    const condition = lines.slice(index + 1).find((next) => /->|Index Cond:/.test(next));
    const bounded = condition?.includes('Index Cond:')
      ? !/Index Cond: \(tenant_id = '[^']*'::text\)$/.test(condition)
      : false;
    // Unbounded, a scan reads its whole index (all tenants' rows) or, on the tenant alone, all of one tenant's.
    if (!bounded && !partial.includes(scan[1] ?? scan[2]!)) faults.push(`${line.trim()} ${condition?.trim() ?? ''}`);
  });
  return faults;
}

/**
 * Rows enough for PostgreSQL's statistics to tell the indexes apart (an empty table's plans pick any index): two
 * tenants' items in every resource and link table, then ANALYZE. SQLite plans without statistics.
 */
async function fill(api: TestApp): Promise<void> {
  if (api.storage.kind !== 'postgres') return;
  const db = (api.storage as unknown as { db: Connection }).db;
  for (const tenant of [api.credentials.tenantId, 'another-tenant']) {
    for (const def of resources) {
      const names = representedFields(def).filter((name) => !['id', 'createdAt', 'updatedAt'].includes(name));
      const values = names.map((name) => {
        const field = def.fields[name]!;
        if (field.ref) return `'x' || (i % 300)`;
        const words = field.values ?? ['brown', 'black', 'white', 'grey', 'red', 'Oslo', 'Bergen'];
        return `(ARRAY['${words.join("','")}'])[i % ${words.length} + 1]`;
      });
      await db.run(
        `INSERT INTO ${def.name} (tenant_id, id, ${names.map(columnOf).join(', ')}, created_at, updated_at)
        SELECT $1, 'x' || i, ${values.join(', ')}, now(), now() FROM generate_series(1, 3000) i`,
        [tenant],
      );
    }
    for (const [table, self, target] of [
      ['dog_foods', 'dog_id', 'food_id'],
      ['owner_veterinarians', 'owner_id', 'veterinarian_id'],
    ])
      await db.run(
        `INSERT INTO ${table} (tenant_id, ${self}, ${target}) SELECT $1, 'x' || i, 'x' || (i % 300) FROM generate_series(1, 3000) i`,
        [tenant],
      );
  }
  await db.run('ANALYZE', []);
}

test('every filter, parent and the adoptions view count through an index, on both backends', async (t) => {
  const api = await build(t);
  const parents = new Map<string, string>();
  for (const def of resources) parents.set(def.name, (await create(api, def.name, { name: 'Rex' })).id!);
  await fill(api);
  const urls: string[] = [];
  for (const def of resources) {
    for (const [param, field] of Object.entries(def.filters))
      urls.push(`/v1/${def.name}/count?${param}=${def.fields[field]!.values?.[0] ?? 'brown'}`);
    for (const [name, association] of Object.entries(def.associations))
      if (association.kind === 'many' && association.nestedPath)
        urls.push(`/v1/${def.name}/${parents.get(def.name)}/${name}`);
  }
  urls.push('/v1/dogs/count?color=brown,black&state=lost', '/v1/adoptions', '/v1/adoptions?color=brown');
  assert.ok(urls.length >= 12, urls.join(' '));
  const issued = recordCounts(api);
  for (const url of urls) {
    const response = await api.request({ url, headers: { prefer: 'count=exact' } });
    assert.equal(response.statusCode, 200, `${url}: ${response.body}`);
    assert.equal(issued.length, urls.indexOf(url) + 1, `${url} counted once, with a statement`);
    assert.deepEqual(await fullScans(api, issued.at(-1)!), [], `${url}: ${issued.at(-1)!.sql}`);
  }
});

test('a whole collection is counted from the kept count, without a count(*) of its rows', async (t) => {
  const api = await build(t);
  await create(api, 'dogs', { name: 'Rex' });
  const issued = recordCounts(api);
  const response = await api.request({ url: '/v1/dogs/count' });
  assert.equal(response.json().count, 1);
  assert.deepEqual(issued, []);
});

test("a count of q, alone or with a filter, reads each word's keys once and intersects them (both backends)", async (t) => {
  const api = await build(t);
  for (const [name, furColor, location] of [
    ['Rex', 'brown', 'Oslo'],
    ['Rexa', 'black', 'Oslo'],
    ['Rex Two', 'brown', 'Bergen'],
    ['Max', 'brown', 'Oslo'],
  ])
    await create(api, 'dogs', { name, furColor, location });
  await fill(api);
  const issued = recordCounts(api);
  const expected: Array<[string, number]> = [
    ['/v1/dogs/count?q=rex%20oslo', 2],
    ['/v1/dogs/count?q=rex%20oslo&color=brown', 1],
    ['/v1/dogs/count?q=rex', 3],
  ];
  for (const [url, count] of expected) {
    assert.deepEqual((await api.request({ url })).json(), { count }, url);
    const statement = issued.at(-1)!;
    assert.deepEqual(await fullScans(api, statement), [], `${url}: ${statement.sql}`);
    if (api.storage.kind !== 'sqlite') continue;
    // As one IN list per word, SQLite looked the rows up by every pair of the two lists' seqs.
    const db = (api.storage as unknown as { db: Database.Database }).db;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`).all(...statement.params) as Array<{
      detail: string;
    }>;
    assert.ok(
      plan.filter((row) => row.detail.startsWith('LIST SUBQUERY')).length <= 1,
      `${url}: ${JSON.stringify(plan)}`,
    );
  }
});
