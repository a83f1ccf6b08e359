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

/** A row read as an array (columns in the order of `names`) as an item. */
export function toItem(names: readonly string[], row: readonly FieldValue[]): Item {
  const item: Item = {};
  for (let c = 0; c < names.length; c += 1) item[names[c]!] = row[c]!;
  return item;
}

/** A page's items as JSON texts of `fields` (Storage.listJson), for a backend that reads items first. */
export function jsonPage(page: Page, fields: readonly string[]): JsonPage {
  return {
    items: page.items.map((item) => {
      const picked: Item = {};
      for (const name of fields) picked[name] = item[name]!;
      return JSON.stringify(picked);
    }),
    hasMore: page.hasMore,
  };
}
