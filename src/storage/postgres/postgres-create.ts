// A create with references to check and links to write, as one PostgreSQL statement: one round trip, no transaction
// of its own (measured faster than the same statements pipelined in a transaction); it commits with the other creates
// of its turn (group-commit.ts).
import type { ResourceDef } from '../../resources/definition.js';
import { perDefinition } from '../../resources/per-definition.js';
import type { CreatePlan } from '../../plan/write-plan.js';
import { COUNT_SQL } from '../resource-counts.js';
import { MissingReferences } from '../storage-error.js';
import type { Connection } from './connection.js';
import { indexCreatedKeys, insertStatement } from './postgres-sql.js';

/**
 * The statement of a create of `def` with these checks, links and answer (its shape): each check a CTE that
 * share-locks the items found, as the transaction's SELECT … FOR KEY SHARE did; the INSERT only when every check
 * found all its ids; the search keys, the links, the count and the answer only when the INSERT wrote a row. It returns the ids each
 * check found, so that a refused create names what is missing. `first` is the first parameter after the INSERT's
 * and the item's search keys (the parameter just before it).
 */
function createStatement(def: ResourceDef, plan: CreatePlan, first: number): string {
  let next = first;
  const ctes: string[] = [];
  const found: string[] = [];
  plan.checks.forEach(({ target }, index) => {
    const ids = `$${next++}::text[]`;
    ctes.push(`c${index} AS (SELECT id FROM ${target} WHERE tenant_id = $1 AND id = ANY(${ids}) FOR KEY SHARE)`);
    found.push(`(SELECT count(*) FROM c${index}) = (SELECT count(DISTINCT i) FROM unnest(${ids}) AS i)`);
  });
  const where = found.length > 0 ? found.join(' AND ') : 'true';
  const insert = insertStatement(def).replace(
    /VALUES \((.*)\)\s*$/s,
    (_, values: string) => `SELECT ${values} WHERE ${where}`,
  );
  ctes.push(`created AS (${insert} RETURNING seq)`);
  // The search keys, the last of the INSERT's parameters, by the new item's seq.
  ctes.push(indexCreatedKeys(def, first - 1));
  const id = plan.links.length > 0 ? `$${next++}` : '';
  plan.links.forEach(({ table, selfColumn, targetColumn }, index) => {
    ctes.push(`l${index} AS (INSERT INTO ${table} (tenant_id, ${selfColumn}, ${targetColumn})
      SELECT $1, ${id}, u.target FROM created, unnest($${next++}::text[]) WITH ORDINALITY AS u(target, n) ORDER BY u.n)`);
  });
  const count = COUNT_SQL.add.replace('VALUES ($1, $2, $3)', () => `SELECT $1, '${def.name}', 1 FROM created`);
  ctes.push(`counted AS (${count})`);
  if (plan.answer) {
    ctes.push(`answered AS (UPDATE idempotency_keys SET answer = $${next} WHERE tenant_id = $1
      AND client_id = $${next + 1} AND key = $${next + 2} AND EXISTS (SELECT 1 FROM created))`);
  }
  const arrays = plan.checks.map((_, index) => `array(SELECT id FROM c${index})`);
  return `WITH ${ctes.join(',\n  ')}\nSELECT ${arrays.length > 0 ? arrays.join(', ') : '1'}`;
}

/** The statements by shape (which fields are checked, which sets linked, whether a key is answered), per resource. */
const statements = perDefinition((_def: ResourceDef) => new Map<string, string>());

/**
 * Inserts the item, its links, its count and its key's answer if every reference names an item of the tenant; else
 * writes nothing and throws MissingReferences for the first field with a missing id. `params` are the INSERT's, then
 * the item's search keys.
 */
export async function createChecked(db: Connection, plan: CreatePlan, params: unknown[]): Promise<void> {
  const shape = `${plan.checks.map((check) => check.field).join()}|${plan.links.map((link) => link.table).join()}|${plan.answer ? 1 : 0}`;
  const known = statements(plan.def);
  let sql = known.get(shape);
  if (sql === undefined) {
    sql = createStatement(plan.def, plan, params.length + 1);
    known.set(shape, sql);
  }
  for (const check of plan.checks) params.push(check.ids);
  if (plan.links.length > 0) params.push(plan.item.id);
  for (const link of plan.links) params.push(link.ids);
  if (plan.answer) params.push(plan.answer.answer, plan.answer.key.clientId, plan.answer.key.key);
  const [row] = await db.commitRows<Array<string[]>>(sql, params);
  plan.checks.forEach(({ field, target, ids }, index) => {
    const present = new Set(row![index]);
    const missing = ids.filter((id) => !present.has(id));
    if (missing.length > 0) throw new MissingReferences(field, target, missing);
  });
}
