// Test support: a PostgreSQL schema filled in bulk (generate_series) with 100,000 dogs of one tenant and their world.
import type { Executor } from '../../src/storage/postgres/connection.js';
import { indexStoredItems } from '../../src/storage/postgres/migrate.js';

/** The tenant whose reads are explained, and how many dogs it holds. */
export const BIG_TENANT = 'plans-a';
export const BIG_DOGS = 100_000;
/** A colour only two dogs have (one adoptable): a filter on it must not walk the tenant to find them. */
export const RARE_COLOR = 'purple';

const COLORS = `(ARRAY['brown','black','white','golden','grey','cream','red','brindle'])`;
const PLACES = `(ARRAY['Oslo','Bergen','Tromsø','Trondheim','Stavanger','København','Stockholm','Göteborg','Helsinki','Reykjavík'])`;
const STATES = `(ARRAY['registered','registered','registered','adoptable','adopted','lost'])`;

/** Rows of one resource table: the columns after tenant_id and id, as SELECT expressions of g. */
function resourceRows(table: string, tenant: string, count: number, columns: Record<string, string>) {
  const names = Object.keys(columns);
  return `INSERT INTO ${table} (tenant_id, id, ${names.join(', ')}, created_at, updated_at)
    SELECT '${tenant}', '${table[0]}' || g, ${Object.values(columns).join(', ')},
      timestamptz '2026-01-01' + g * interval '1 second', timestamptz '2026-01-01' + g * interval '1 second'
    FROM generate_series(1, ${count}) g`;
}

/**
 * One tenant with 100,000 dogs (each owned, with a veterinarian and two foods), 20,000 owners, 1,000 veterinarians
 * and 100 foods; another tenant with 20,000 dogs, so that no table is one tenant's alone. Statements only, no
 * ANALYZE: the caller decides when statistics exist.
 */
export async function seedBulk(client: Executor): Promise<void> {
  for (const [tenant, dogs] of [
    [BIG_TENANT, BIG_DOGS],
    ['plans-b', 20_000],
  ] as const) {
    const owners = dogs / 5;
    await client.run(
      resourceRows('owners', tenant, owners, {
        name: `'Owner ' || g`,
        email: `'owner' || g || '@example.com'`,
        location: `${PLACES}[g % 10 + 1]`,
      }),
      [],
    );
    await client.run(
      resourceRows('veterinarians', tenant, 1000, {
        name: `'Vet ' || g`,
        clinic: `'Clinic ' || (g % 50)`,
        location: `${PLACES}[g % 10 + 1]`,
      }),
      [],
    );
    await client.run(resourceRows('foods', tenant, 100, { name: `'Food ' || g`, brand: `'Brand ' || (g % 7)` }), []);
    await client.run(
      resourceRows('dogs', tenant, dogs, {
        name: `'Rex ' || g`,
        fur_color: `CASE WHEN g IN (777, ${dogs - 3}) THEN '${RARE_COLOR}' ELSE ${COLORS}[g / 6 % 8 + 1] END`,
        state: `${STATES}[g % 6 + 1]`,
        location: `${PLACES}[g % 10 + 1]`,
        owner_id: `'o' || (g % ${owners} + 1)`,
        veterinarian_id: `'v' || (g % 1000 + 1)`,
      }),
      [],
    );
    await client.run(
      `INSERT INTO dog_foods (tenant_id, dog_id, food_id)
      SELECT '${tenant}', 'd' || g, 'f' || ((g + k) % 100 + 1) FROM generate_series(1, ${dogs}) g, generate_series(0, 1) k
      ORDER BY g, k`,
      [],
    );
    await client.run(
      `INSERT INTO owner_veterinarians (tenant_id, owner_id, veterinarian_id)
      SELECT '${tenant}', 'o' || g, 'v' || (g % 1000 + 1) FROM generate_series(1, ${owners}) g`,
      [],
    );
  }
  await indexStoredItems(client);
}
