// SQL text for the SQLite backend, built from resource definitions (statements are cached by this text).
import { columnOf, representedFields, type AssociationDef, type ResourceDef } from '../../resources/definition.js';
import { perDefinition } from '../../resources/per-definition.js';
import { words } from '../search-words.js';
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

/** A row's entry in the full-text index: its seq, then its words. */
export const searchIndexInsert = perDefinition(
  (def: ResourceDef): string => `INSERT INTO ${def.name}_fts (rowid, words) VALUES (?, ?)`,
);

/** With search text, the full-text index leads (CROSS JOIN fixes the order): it narrows far better than the tenant. */
export function fromClause(def: ResourceDef, q: string | undefined): string {
  return q === undefined ? `${def.name} t` : `${def.name}_fts f CROSS JOIN ${def.name} t ON t.seq = f.rowid`;
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
    const terms = words(criteria.q);
    if (terms.length === 0) return { params };
    clauses.push(`${def.name}_fts MATCH ?`);
    params.push(terms.map((term) => `"${term}"*`).join(' '));
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
