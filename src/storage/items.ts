// Backend-neutral pieces of reads and writes: a new item from write values, rows as items, the missing-reference error.
import type { FieldValue, Item, ResourceDef, WriteValues } from '../resources/definition.js';
import { perDefinition } from '../resources/per-definition.js';
import { newId, now } from './ids.js';
import type { JsonPage, Page } from './storage.js';

/** Each stored field (write-only sets left out) with the value a create gives it when the values have none. */
const storedFields = perDefinition((def: ResourceDef): ReadonlyArray<{ name: string; fallback: FieldValue }> =>
  Object.entries(def.fields)
    .filter(([, field]) => field.kind !== 'refs')
    .map(([name, field]) => ({ name, fallback: field.default ?? null })),
);

/** The item a create stores: a fresh id, each field's value or default (write-only sets left out), both timestamps. */
export function newItem(def: ResourceDef, values: WriteValues): Item {
  const timestamp = now();
  const item: Item = { id: newId() };
  for (const { name, fallback } of storedFields(def)) item[name] = (values[name] as FieldValue | undefined) ?? fallback;
  item.createdAt = timestamp;
  item.updatedAt = timestamp;
  return item;
}

/** A row read as an array (columns in the order of `names`, from column `from`) as an item. */
export function toItem(names: readonly string[], row: readonly FieldValue[], from = 0): Item {
  const item: Item = {};
  for (let c = 0; c < names.length; c += 1) item[names[c]!] = row[from + c]!;
  return item;
}

/** A page's items as JSON texts of `fields` (Storage.listJson), for a backend that reads items first. */
export function jsonPage(page: Page, fields: readonly string[]): JsonPage {
  const keys = jsonKeys(fields);
  return {
    items: page.items.map((item) => {
      // An item read with exactly `fields`, in their order, is its own JSON: one string, not one per value.
      if (hasExactly(item, fields)) return JSON.stringify(item);
      let text = '';
      for (let i = 0; i < fields.length; i += 1) text += keys[i]! + JSON.stringify(item[fields[i]!] ?? null);
      return fields.length === 0 ? '{}' : `${text}}`;
    }),
    hasMore: page.hasMore,
  };
}

/**
 * Rows whose columns are `fields`, in that order, as their JSON texts, with no item made on the way: byte for byte
 * what JSON.stringify writes for the item's fields (every value is text or null).
 */
export function rowsAsJson(rows: ReadonlyArray<readonly FieldValue[]>, fields: readonly string[]): string[] {
  const keys = jsonKeys(fields);
  return rows.map((row) => {
    let text = '';
    for (let i = 0; i < fields.length; i += 1) text += keys[i]! + JSON.stringify(row[i] ?? null);
    return fields.length === 0 ? '{}' : `${text}}`;
  });
}

/**
 * Whether JSON.stringify writes `item` as the fields would: its keys are `fields` in their order and no value is
 * undefined (which JSON.stringify leaves out, and the fields write as null).
 */
function hasExactly(item: Item, fields: readonly string[]): boolean {
  let index = 0;
  for (const key in item) {
    if (key !== fields[index] || item[key] === undefined) return false;
    index += 1;
  }
  return index === fields.length;
}

/** Each field's `"name":`, the first after `{` and the others after a comma. */
function jsonKeys(fields: readonly string[]): string[] {
  return fields.map((field, index) => `${index === 0 ? '{' : ','}${JSON.stringify(field)}:`);
}
