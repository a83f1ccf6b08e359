// The backend-neutral plan of a write: what it must check, change and clear; each backend renders it into its SQL.
import {
  columnOf,
  representedFields,
  type FieldValue,
  type Item,
  type LinkRef,
  type ResourceDef,
  type WriteValues,
} from '../resources/definition.js';
import { resources } from '../resources/index.js';
import { perDefinition } from '../resources/per-definition.js';
import { now } from '../storage/ids.js';
import { newItem } from '../storage/items.js';
import type { IdempotencyKey, IdempotentWrite } from '../storage/storage.js';

/** Ids of one field that must name items of `target` in the writer's tenant, or the write fails. */
export interface ReferenceCheck {
  readonly field: string;
  readonly target: string;
  readonly ids: readonly string[];
}

/** A write-only set given in the values: the item's rows in its link table are replaced by these, in order. */
export interface LinkSet extends LinkRef {
  readonly ids: readonly string[];
}

/**
 * A column holding ids of the deleted resource: a ref column to set to NULL, or a link table's column whose rows go.
 */
interface Reference {
  readonly table: string;
  readonly column: string;
}

/** What a delete of an item clears besides its row and search entry: every reference to it in any definition. */
export interface Clearing {
  readonly refColumns: readonly Reference[];
  readonly linkRows: readonly Reference[];
}

/** A claimed Idempotency-Key and the answer a retry replays, committed with the write. */
export interface KeyAnswer {
  readonly key: IdempotencyKey;
  readonly answer: string;
}

/** What a write adds to its tenant's count of the resource (storage/resource-counts.ts), in its own transaction. */
interface CountChange {
  readonly resource: string;
  /** 0 for an update: the count stays, the tenant's write stamp moves. */
  readonly by: 1 | 0 | -1;
}

export interface CreatePlan {
  readonly def: ResourceDef;
  /** The new item, id and timestamps included: the answer is made from it before the commit. */
  readonly item: Item;
  /** The item's values in the order of representedFields, as the insert takes them. */
  readonly row: readonly FieldValue[];
  readonly checks: readonly ReferenceCheck[];
  readonly links: readonly LinkSet[];
  readonly answer?: KeyAnswer;
  /** One more item in the tenant's count. */
  readonly count: CountChange;
}

export interface UpdatePlan {
  readonly def: ResourceDef;
  readonly values: WriteValues;
  /** The fields the update sets, `updatedAt` last: only these columns are written. */
  readonly changed: readonly string[];
  readonly checks: readonly ReferenceCheck[];
  readonly links: readonly LinkSet[];
  /** No item more or less, but one write more in the tenant's write stamp. */
  readonly count: CountChange;
}

export interface RemovePlan {
  readonly def: ResourceDef;
  readonly clear: Clearing;
  /** One item less in the tenant's count. */
  readonly count: CountChange;
}

/** A create: a new item, the references it must find, the link sets it writes, and a key's answer to keep. */
export function planCreate(def: ResourceDef, values: WriteValues, idempotency?: IdempotentWrite): CreatePlan {
  const item = newItem(def, values);
  const names = representedFields(def);
  const row: FieldValue[] = new Array(names.length);
  for (let c = 0; c < names.length; c += 1) row[c] = item[names[c]!]!;
  const plan: CreatePlan = {
    def,
    item,
    row,
    checks: referenceChecks(def, values),
    links: linkSets(def, values),
    count: countChanges(def).created,
  };
  if (!idempotency) return plan;
  return { ...plan, answer: { key: idempotency.key, answer: idempotency.answerFor(item) } };
}

/** An update: the fields given (sets aside) and `updatedAt` change; the references given must exist. */
export function planUpdate(def: ResourceDef, values: WriteValues): UpdatePlan {
  const changed = Object.keys(values).filter((name) => def.fields[name]?.kind !== 'refs');
  changed.push('updatedAt');
  const count = countChanges(def).updated;
  return { def, values, changed, checks: referenceChecks(def, values), links: linkSets(def, values), count };
}

/** The current item (read in the write's transaction) with the update's values and a new `updatedAt`. */
export function applyUpdate(plan: UpdatePlan, current: Item): Item {
  for (const name of plan.changed) current[name] = plan.values[name] as FieldValue;
  current.updatedAt = now();
  return current;
}

/** A delete: the row, its search entry, and every reference to it (derived once per resource). */
export function planRemove(def: ResourceDef): RemovePlan {
  return { def, clear: clearingOf(def), count: countChanges(def).removed };
}

/** A create's, an update's and a delete's change of the count, made once per resource. */
const countChanges = perDefinition((def: ResourceDef) => ({
  created: { resource: def.name, by: 1 } as CountChange,
  updated: { resource: def.name, by: 0 } as CountChange,
  removed: { resource: def.name, by: -1 } as CountChange,
}));

/**
 * A definition's ref and refs fields, and its sets with their link tables: found once, not on every write (POST is a
 * hot path).
 */
const referencing = perDefinition((def: ResourceDef) => {
  const refs: Array<{ name: string; target: string }> = [];
  const sets: Array<{ name: string; link: LinkRef }> = [];
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.ref) refs.push({ name, target: field.ref });
    if (field.kind === 'refs' && field.link) sets.push({ name, link: field.link });
  }
  return { refs, sets };
});

/** The ids of every non-null ref and every non-empty set in the values, by field: those the write must find. */
function referenceChecks(def: ResourceDef, values: WriteValues): ReferenceCheck[] {
  const checks: ReferenceCheck[] = [];
  for (const { name, target } of referencing(def).refs) {
    const value = values[name];
    if (value === null || value === undefined) continue;
    const ids = typeof value === 'string' ? [value] : value;
    if (ids.length > 0) checks.push({ field: name, target, ids });
  }
  return checks;
}

/** The write-only sets given in the values, each with its link table. */
function linkSets(def: ResourceDef, values: WriteValues): LinkSet[] {
  const sets: LinkSet[] = [];
  for (const { name, link } of referencing(def).sets) {
    const ids = values[name];
    if (Array.isArray(ids))
      sets.push({
        table: link.table,
        selfColumn: link.selfColumn,
        targetColumn: link.targetColumn,
        ids: ids as readonly string[],
      });
  }
  return sets;
}

const clearingOf = perDefinition((def: ResourceDef): Clearing => deriveClearing(def, resources));

/**
 * Every reference to `target` among `all` definitions: each `ref` field pointing to it is a column
 * to set to NULL; each link table is written by one `refs` field, so the link tables holding
 * `target`'s ids are those of its own sets (their self column) and of sets pointing to it (their
 * target column). Associations are not read: a link table only the other side declares is found too.
 */
export function deriveClearing(target: ResourceDef, all: readonly ResourceDef[]): Clearing {
  const refColumns: Reference[] = [];
  const linkRows: Reference[] = [];
  const add = (list: Reference[], table: string, column: string): void => {
    if (!list.some((known) => known.table === table && known.column === column)) list.push({ table, column });
  };
  for (const def of all) {
    for (const [name, field] of Object.entries(def.fields)) {
      if (field.kind === 'ref' && field.ref === target.name) add(refColumns, def.name, columnOf(name));
      if (field.kind !== 'refs' || !field.link) continue;
      if (def.name === target.name) add(linkRows, field.link.table, field.link.selfColumn);
      if (field.ref === target.name) add(linkRows, field.link.table, field.link.targetColumn);
    }
  }
  return { refColumns, linkRows };
}
