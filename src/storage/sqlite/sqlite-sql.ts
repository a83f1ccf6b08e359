// SQL text for the SQLite backend, built from resource definitions (statements are cached by this text).
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import { perDefinition } from '../../resources/per-definition.js';
import { matchRanges, matchSet, searchText, type SearchText, type TierStream } from '../search-keys.js';
import type { Criteria, Scope } from '../storage.js';

/**
 * A bound integer that SQLite's query planner does not look at. The planner reads the value of
 * a bare `LIMIT ?`, which ties the plan to it: the statement is prepared again each time the
 * value is bound, a parse and plan on every run. Measured on a page of ten: 46 µs with
 * `LIMIT ? OFFSET ?`, 26 µs with the CAST, the same as with literal numbers.
 */
export const BOUND_INTEGER = 'CAST(? AS INTEGER)';

// The texts below are built once per definition: a statement is found in the cache by its text,
// and a string kept is hashed once, where one built for each request is hashed on every lookup.

/** The columns of a representation, in the order of representedFields. */
export const selectList = perDefinition((def: ResourceDef): string =>
  representedFields(def)
    .map((name) => `t.${columnOf(name)}`)
    .join(', '),
);

/**
 * The JSON object of an item with the given represented fields, in that order, built by SQLite:
 * `json_object('id', t.id, 'name', t.name, …)`. Every value of the API is text or null, and
 * SQLite writes those exactly as JSON.stringify does (the same escapes, test/storage/json-page.test.ts).
 * Built once per fields array (the default representation's, or a cached `fields` selection's),
 * in a WeakMap rather than through perDefinition: a selection dropped from its cache takes its
 * text with it, where perDefinition keeps what it builds for good.
 */
export function jsonObjectOf(fields: readonly string[]): string {
  let text = jsonObjects.get(fields);
  if (text === undefined) {
    text = `json_object(${fields
      .map((name) => {
        if (!/^[A-Za-z]+$/.test(name)) throw new Error(`not a field name: ${name}`);
        return `'${name}', t.${columnOf(name)}`;
      })
      .join(', ')})`;
    jsonObjects.set(fields, text);
  }
  return text;
}
const jsonObjects = new WeakMap<readonly string[], string>();

/** One item of a tenant by its id. */
export const byIdQuery = perDefinition(
  (def: ResourceDef): string => `SELECT ${selectList(def)} FROM ${def.name} t WHERE t.tenant_id = ? AND t.id = ?`,
);

/** One item of a tenant by its id, then its seq (the row a write changes). */
export const currentQuery = perDefinition(
  (def: ResourceDef): string =>
    `SELECT ${selectList(def)}, t.seq FROM ${def.name} t WHERE t.tenant_id = ? AND t.id = ?`,
);

/** A new row: the tenant, then the represented fields in order. */
export const insertQuery = perDefinition((def: ResourceDef): string => {
  const fields = representedFields(def);
  return `INSERT INTO ${def.name} (tenant_id, ${fields.map(columnOf).join(', ')}) VALUES (?, ${fields.map(() => '?').join(', ')})`;
});

/**
 * One key of an item in the search index (parameters: tenant, key, seq). An item's keys are written one statement run
 * each: a JSON array through json_each in one statement cost twice as much on 100,000 dogs (105 against 40 µs for a
 * dog's 17 keys; a VALUES list of 17 rows the same as json_each).
 */
export const searchKeyInsert = perDefinition(
  (def: ResourceDef): string => `INSERT INTO ${def.name}_search_keys (tenant_id, key, seq) VALUES (?, ?, ?)`,
);

/** Removes one key of an item, by the primary key (parameters: tenant, key, seq). */
export const searchKeyDelete = perDefinition(
  (def: ResourceDef): string => `DELETE FROM ${def.name}_search_keys WHERE tenant_id = ? AND key = ? AND seq = ?`,
);

/**
 * The streams of search tiers in one statement (search-tiers.ts): for each tier, its keys' first rows in creation
 * order that have one of each of its `also` sets of keys, joined to their items and the query's `where`; rows are the
 * item's columns, its seq, the tier; the limit again for the whole. Parameters, per tier and per key of it: the
 * tenant (with `tenant`), the key, the last seq read (with `after`), the `also` keys, the params of `where`, the
 * limit; then the limit again for a tier of several keys; then the limit.
 */
export function streamsQuery(
  def: ResourceDef,
  where: string,
  streams: readonly TierStream[],
  after: boolean,
  tenant: boolean,
): string {
  // A text of a dozen members, kept by its shape (KeptTexts).
  let shape = `${def.name} ${after} ${tenant} ${where}`;
  for (const { tier, keys, also } of streams)
    shape += ` ${tier}:${keys.length}:${also.map((set) => set.length).join()}`;
  return streamTexts.get(shape) ?? streamTexts.keep(shape, streamsText(def, where, streams, after, tenant));
}

/**
 * SQL texts kept by their shape: built and hashed once, where a long text built for each request would be hashed
 * again at each look-up in the statement cache. A client's filters could make more shapes, so a set is bounded.
 */
class KeptTexts<Shape> {
  private static readonly BOUND = 256;
  private readonly texts = new Map<Shape, string>();

  get(shape: Shape): string | undefined {
    return this.texts.get(shape);
  }

  keep(shape: Shape, text: string): string {
    if (this.texts.size >= KeptTexts.BOUND) this.texts.clear();
    this.texts.set(shape, text);
    return text;
  }
}

const streamTexts = new KeptTexts<string>();

function streamsText(
  def: ResourceDef,
  where: string,
  streams: readonly TierStream[],
  after: boolean,
  tenant: boolean,
): string {
  const bounds = `${tenant ? 'k.tenant_id = ? AND ' : ''}k.key = ?${after ? ' AND k.seq > ?' : ''}`;
  const members = streams.map(({ tier, keys, also }) => {
    const sets = also
      .map(
        (set) =>
          `EXISTS (SELECT 1 FROM ${def.name}_search_keys a WHERE a.tenant_id = k.tenant_id AND a.key IN (${marks(set.length)}) AND a.seq = k.seq) AND `,
      )
      .join('');
    const one = `SELECT * FROM (SELECT ${selectList(def)}, k.seq AS s, ${Math.trunc(tier)} FROM ${def.name}_search_keys k CROSS JOIN ${def.name} t ON t.seq = k.seq WHERE ${bounds} AND ${sets}${where} ORDER BY k.seq LIMIT ${BOUND_INTEGER})`;
    // Several keys: each read in creation order up to the limit, then merged.
    return keys.length === 1
      ? one
      : `SELECT * FROM (${Array.from(keys, () => one).join(' UNION ALL ')} ORDER BY s LIMIT ${BOUND_INTEGER})`;
  });
  // The members run one after another as the outer LIMIT pulls rows: the tiers after the page are never read.
  return `SELECT * FROM (${members.join(' UNION ALL ')}) LIMIT ${BOUND_INTEGER}`;
}

/** How many postings each of `count` keys has, up to `bound` (parameters, per key: the tenant with `tenant`, the key). */
export function postingsQuery(def: ResourceDef, count: number, bound: number, tenant: boolean): string {
  // Kept by shape (KeptTexts): two words give 30 keys, a text of 2 KiB to build and hash again.
  const texts = postingsTexts(def);
  const shape = (Math.trunc(count) * 1024 + Math.trunc(bound)) * 2 + (tenant ? 1 : 0);
  const kept = texts.get(shape);
  if (kept !== undefined) return kept;
  const one = `(SELECT count(*) FROM (SELECT 1 FROM ${def.name}_search_keys WHERE ${tenant ? 'tenant_id = ? AND ' : ''}key = ? LIMIT ${Math.trunc(bound)}))`;
  return texts.keep(shape, `SELECT ${Array.from({ length: count }, () => one).join(', ')}`);
}
const postingsTexts = perDefinition((_def: ResourceDef) => new KeptTexts<number>());

function marks(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/**
 * A range of search keys [from, to) in key order, then creation order, joined to their items and `where`: rows are
 * the item's columns, its seq and the key (parameters: the tenant with `tenant`, from, to, with `after` the last
 * row's key and seq (from being its key), the params of `where`, the limit).
 */
export function rangeQuery(def: ResourceDef, where: string, tenant: boolean, after: boolean): string {
  // Kept by shape (KeptTexts): /search builds one for each resource of each request.
  const texts = rangeTexts(def);
  const shape = `${tenant ? 't' : 'p'}${after ? 'a' : 'f'}${where}`;
  return texts.get(shape) ?? texts.keep(shape, rangeText(def, where, tenant, after));
}
const rangeTexts = perDefinition((_def: ResourceDef) => new KeptTexts<string>());

function rangeText(def: ResourceDef, where: string, tenant: boolean, after: boolean): string {
  // Read on after a row: from that row on in (key, seq) order, a row value the index starts at (an OR of the key and
  // the seq read the key's rows before it again, a chunk of a deep page more each time).
  return `SELECT ${selectList(def)}, k.seq, k.key FROM ${def.name}_search_keys k CROSS JOIN ${def.name} t ON t.seq = k.seq
    WHERE ${tenant ? 'k.tenant_id = ? AND ' : ''}${after ? '(k.key, k.seq) > (?, ?)' : 'k.key >= ?'} AND k.key < ? AND ${where}
    ORDER BY k.key, k.seq LIMIT ${BOUND_INTEGER}`;
}

/** The condition that an item matches search text (SPEC §5), for count and a sorted `q` (search-keys.ts matchSet). */
function matchClause(def: ResourceDef, text: SearchText, tenant: string | undefined, params: unknown[]): string {
  const bind = (value: string): string => (params.push(value), '?');
  return `t.seq IN (${matchSet(def.name, matchRanges(text), tenant, bind)})`;
}

export function sortKey(field: string): string {
  const column = `t.${columnOf(field)}`;
  return field === 'createdAt' || field === 'updatedAt' ? column : `ci(${column})`;
}

/** The WHERE clause of tenant, filters, relation and search; `where` is undefined when nothing can match. */
export function whereClause(def: ResourceDef, scope: Scope, criteria: Criteria): { where?: string; params: unknown[] } {
  // The public view reads every tenant's rows; a tenant's reads are bounded by its id.
  const tenant = scope.kind === 'tenant' ? scope.tenantId : undefined;
  const clauses = tenant === undefined ? ['1 = 1'] : ['t.tenant_id = ?'];
  const params: unknown[] = tenant === undefined ? [] : [tenant];
  for (const filter of criteria.filters) {
    const column = `t.${columnOf(filter.field)}`;
    if (tenant === undefined && filter.exact && filter.values.length === 1) {
      // Across tenants, only a partial index serves an enum's value (dogs_adoptable), and SQLite uses one only for
      // `column = <literal>`. An enum's value is one of its definition's few words, so the statements stay few.
      clauses.push(`${column} = '${filter.values[0]!.replaceAll("'", "''")}'`);
      continue;
    }
    clauses.push(`${filter.exact ? column : `ci(${column})`} IN (${filter.values.map(() => '?').join(', ')})`);
    params.push(...filter.values);
  }
  if (criteria.related) {
    const { association, parentId } = criteria.related;
    if ('reverseField' in association) {
      clauses.push(`t.${columnOf(association.reverseField)} = ?`);
      params.push(parentId);
    } else if ('link' in association) {
      const { table, selfColumn, targetColumn } = association.link;
      if (tenant === undefined) {
        clauses.push(
          `t.id IN (SELECT l.${targetColumn} FROM ${table} l WHERE l.tenant_id = t.tenant_id AND l.${selfColumn} = ?)`,
        );
        params.push(parentId);
      } else {
        clauses.push(
          `t.id IN (SELECT l.${targetColumn} FROM ${table} l WHERE l.tenant_id = ? AND l.${selfColumn} = ?)`,
        );
        params.push(tenant, parentId);
      }
    }
  }
  if (criteria.q !== undefined) {
    const text = searchText(criteria.q);
    if (text === undefined) return { params };
    clauses.push(matchClause(def, text, tenant, params));
  }
  return { where: clauses.join(' AND '), params };
}

/**
 * One query for an association over its parents: rows are the target's columns, then the key
 * they belong to. Several keys come as one JSON array parameter, so the text (and statement) is
 * the same however many there are; a single key has a simpler form. Built once per association.
 */
export function relatedQuery(association: AssociationDef, target: ResourceDef, oneKey: boolean): string {
  return oneKey ? oneKeyRelatedQuery(association, target) : manyKeyRelatedQuery(association, target);
}

/**
 * The items related to one key (one parent, the common case of a single item read): a plain
 * range of the association's index with a LIMIT, where the many-key form needs json_each and a
 * window function (parameters: tenant, key, and the limit for an array association).
 */
const oneKeyRelatedQuery = perDefinition((association: AssociationDef, target: ResourceDef): string => {
  if (association.kind === 'one') {
    return `SELECT ${selectList(target)}, t.id FROM ${target.name} t WHERE t.tenant_id = ? AND t.id = ?`;
  }
  if ('reverseField' in association) {
    const column = `t.${columnOf(association.reverseField)}`;
    return `SELECT ${selectList(target)}, ${column} FROM ${target.name} t WHERE t.tenant_id = ? AND ${column} = ? ORDER BY t.seq LIMIT ${BOUND_INTEGER}`;
  }
  const { table, selfColumn, targetColumn } = association.link;
  return `SELECT ${selectList(target)}, l.${selfColumn} FROM ${table} l JOIN ${target.name} t ON t.tenant_id = l.tenant_id AND t.id = l.${targetColumn}
    WHERE l.tenant_id = ? AND l.${selfColumn} = ? ORDER BY t.seq LIMIT ${BOUND_INTEGER}`;
});

/**
 * The items related to several keys, at most the limit per key (parameters: tenant, the keys as a JSON array, the
 * limit).
 */
const manyKeyRelatedQuery = perDefinition((association: AssociationDef, target: ResourceDef): string => {
  const keys = 'SELECT value FROM json_each(?)';
  if (association.kind === 'one') {
    return `SELECT ${selectList(target)}, t.id FROM ${target.name} t WHERE t.tenant_id = ? AND t.id IN (${keys})`;
  }
  let inner: string;
  if ('reverseField' in association) {
    const column = `t.${columnOf(association.reverseField)}`;
    inner = `SELECT ${selectList(target)}, ${column} AS k, t.seq AS s, ROW_NUMBER() OVER (PARTITION BY ${column} ORDER BY t.seq) AS n
      FROM ${target.name} t WHERE t.tenant_id = ? AND ${column} IN (${keys})`;
  } else {
    const { table, selfColumn, targetColumn } = association.link;
    inner = `SELECT ${selectList(target)}, l.${selfColumn} AS k, t.seq AS s, ROW_NUMBER() OVER (PARTITION BY l.${selfColumn} ORDER BY t.seq) AS n
      FROM ${table} l JOIN ${target.name} t ON t.tenant_id = l.tenant_id AND t.id = l.${targetColumn}
      WHERE l.tenant_id = ? AND l.${selfColumn} IN (${keys})`;
  }
  const columns = [...representedFields(target).map((name) => `r.${columnOf(name)}`), 'r.k'].join(', ');
  return `SELECT ${columns} FROM (${inner}) r WHERE r.n <= ${BOUND_INTEGER} ORDER BY r.s`;
});
