// Straight SQL on the database a crashed process left, for what the API cannot show: link rows, references and search
// rows whose item is gone, kept counts that differ from the rows.
import path from 'node:path';
import Database from 'better-sqlite3';
import postgres from 'postgres';

/** Each query counts rows that point at nothing; every count must be 0. */
const ORPHANS: Record<string, string> = {
  'dog_foods without their dog': `SELECT count(*) FROM dog_foods l WHERE NOT EXISTS
    (SELECT 1 FROM dogs d WHERE d.tenant_id = l.tenant_id AND d.id = l.dog_id)`,
  'dog_foods without their food': `SELECT count(*) FROM dog_foods l WHERE NOT EXISTS
    (SELECT 1 FROM foods f WHERE f.tenant_id = l.tenant_id AND f.id = l.food_id)`,
  'owner_veterinarians without their owner': `SELECT count(*) FROM owner_veterinarians l WHERE NOT EXISTS
    (SELECT 1 FROM owners o WHERE o.tenant_id = l.tenant_id AND o.id = l.owner_id)`,
  'owner_veterinarians without their veterinarian': `SELECT count(*) FROM owner_veterinarians l WHERE NOT EXISTS
    (SELECT 1 FROM veterinarians v WHERE v.tenant_id = l.tenant_id AND v.id = l.veterinarian_id)`,
  'dogs whose owner is gone': `SELECT count(*) FROM dogs d WHERE d.owner_id IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM owners o WHERE o.tenant_id = d.tenant_id AND o.id = d.owner_id)`,
  'dogs whose veterinarian is gone': `SELECT count(*) FROM dogs d WHERE d.veterinarian_id IS NOT NULL AND NOT EXISTS
    (SELECT 1 FROM veterinarians v WHERE v.tenant_id = d.tenant_id AND v.id = d.veterinarian_id)`,
};

const RESOURCES = ['dogs', 'owners', 'veterinarians', 'foods'];

/**
 * The kept counts (resource_counts) of every tenant and resource against its rows: a count off by one would be a create
 * or delete whose count and row were not in one transaction. Counted here as the tenants where they differ.
 */
const COUNTS: Record<string, string> = Object.fromEntries(
  RESOURCES.map((table) => [
    `tenants whose kept count of ${table} is not their number of rows`,
    `SELECT count(*) FROM (SELECT tenant_id FROM ${table} UNION SELECT tenant_id FROM resource_counts WHERE resource = '${table}') k
      WHERE (SELECT count(*) FROM ${table} t WHERE t.tenant_id = k.tenant_id) <>
        (SELECT coalesce(sum(n), 0) FROM resource_counts c WHERE c.tenant_id = k.tenant_id AND c.resource = '${table}')`,
  ]),
);

/** The search index of ranked search (both backends): no key without its item, no item without its keys. */
const SEARCH_KEYS: Record<string, string> = Object.fromEntries(
  RESOURCES.flatMap((table) => [
    [
      `${table}_search_keys rows without their item`,
      `SELECT count(*) FROM ${table}_search_keys k WHERE NOT EXISTS
        (SELECT 1 FROM ${table} t WHERE t.tenant_id = k.tenant_id AND t.seq = k.seq)`,
    ],
    [
      `${table} without search keys`,
      `SELECT count(*) FROM ${table} t WHERE NOT EXISTS
        (SELECT 1 FROM ${table}_search_keys k WHERE k.tenant_id = t.tenant_id AND k.seq = t.seq)`,
    ],
  ]),
);

/** The count of every kind of orphan, by name, on the SQLite database of `dataDir`. */
export function sqliteOrphans(dataDir: string): Record<string, number> {
  const db = new Database(path.join(dataDir, 'registry.sqlite'), { readonly: true });
  try {
    const counts: Record<string, number> = {};
    for (const [name, sql] of Object.entries({ ...ORPHANS, ...COUNTS, ...SEARCH_KEYS }))
      counts[name] = Number(db.prepare(sql).pluck().get());
    return counts;
  } finally {
    db.close();
  }
}

/** The same on the PostgreSQL database at `url`. */
export async function postgresOrphans(url: string): Promise<Record<string, number>> {
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const counts: Record<string, number> = {};
    for (const [name, sql] of Object.entries({ ...ORPHANS, ...COUNTS, ...SEARCH_KEYS }))
      counts[name] = Number((await client.unsafe<Array<{ count: string }>>(sql))[0]?.count);
    return counts;
  } finally {
    await client.end();
  }
}

/** Every count zero, for an assertion's expected value. */
export function none(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.keys(counts).map((name) => [name, 0]));
}
