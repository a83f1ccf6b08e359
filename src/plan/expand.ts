// Loads the associations a `fields` selection names, level by level: one query per association node, never per row.
import { ApiError } from '../errors.js';
import type { Selection } from '../query/selection.js';
import type { Item, ResourceDef } from '../resources/definition.js';
import { resourceByName } from '../resources/index.js';
import type { Scope, Storage, TenantScope } from '../storage/storage.js';

/** A nested array holds at most this many associated items (SPEC §3); the nested path pages through all. */
const NESTED_LIMIT = 100;

/**
 * What one answer may hold in nested items, counted as written: an item that a nested array reaches from several items
 * is written under each, so four levels of 100 reach 100 million. `dogs?limit=100&fields=owner(dogs(owner(dogs)))`
 * over one owner's dogs wrote 25 MB and took 234 MB; 98,000 dogs of 100 quotes in each field wrote 200 MB of XML and
 * took 1.3 GB. The items and the characters they write (NESTED_SIZE_MOST, a quote counted as XML's six) are both
 * bounded: every selection of real use is within them, such ones are a 400. A level's related items are read in
 * chunks that the budget left can hold, so that a refused selection has read about as much as the budget.
 */
const NESTED_ITEMS_MOST = 50_000;
const NESTED_SIZE_MOST = 16_000_000;
/** The fewest parents whose related items are read at once: past the budget, a read overshoots it by 10,000 rows. */
const CHUNK_LEAST = 100;
/** What an item's element costs, besides its fields' text. */
const ELEMENT_SIZE = 40;
const ESCAPED = /[&<>"']/g;

const RELATED = Symbol('related');

/**
 * How many times each item of a level is written in the answer (the page's items once each), and how many nested
 * items, and characters of them, the answer may still hold.
 */
interface Written {
  readonly times: ReadonlyMap<Item, number> | undefined;
  readonly budget: { items: number; size: number };
}

/** The characters `item`'s selected fields write, each of &<>"' counted as the six of its XML escape. */
function writtenSize(item: Item, scalars: readonly string[]): number {
  let size = ELEMENT_SIZE;
  for (const name of scalars) {
    const value = item[name];
    size += typeof value === 'string' ? value.length + 5 * (value.match(ESCAPED)?.length ?? 0) : 8;
  }
  return size;
}

function tooLarge(): ApiError {
  return new ApiError(
    'answerTooLarge',
    `This fields selection would write more than ${NESTED_ITEMS_MOST.toLocaleString('en')} nested items, or more ` +
      `than ${NESTED_SIZE_MOST / 1_000_000} million characters of them, in one answer: a nested array is written ` +
      'again under every item that reaches it. Select fewer levels or fields, ask for a smaller limit, or page ' +
      'through a nested path such as /owners/<id>/dogs.',
  );
}

export type RelatedValue = Item | Item[] | null;
type WithRelated = Item & { [RELATED]?: Record<string, RelatedValue> };

/** What `expand` attached to an item under an association name. */
export function relatedOf(item: Item, name: string): RelatedValue | undefined {
  return (item as WithRelated)[RELATED]?.[name];
}

function attach(item: Item, name: string, value: RelatedValue): void {
  const holder = item as WithRelated;
  (holder[RELATED] ??= {})[name] = value;
}

/**
 * Attaches to `items` every association the selection names, recursively. A selection without
 * associations (the default) costs nothing: no promise is made, so the caller awaits nothing.
 */
export function expand(
  storage: Storage,
  def: ResourceDef,
  scope: Scope,
  items: readonly Item[],
  selection: Selection,
): Promise<void> | undefined {
  if (items.length === 0 || selection.associations.length === 0) return undefined;
  // Related items are a tenant's: the public view's resource has no associations to name.
  if (scope.kind !== 'tenant') throw new Error(`the public view of ${def.name} has no associations to expand`);
  return expandAssociations(storage, def, scope, items, selection, {
    times: undefined,
    budget: { items: NESTED_ITEMS_MOST, size: NESTED_SIZE_MOST },
  });
}

async function expandAssociations(
  storage: Storage,
  def: ResourceDef,
  scope: TenantScope,
  items: readonly Item[],
  selection: Selection,
  written: Written,
): Promise<void> {
  for (const { name, selection: nested } of selection.associations) {
    const association = def.associations[name]!;
    const target = resourceByName(association.target)!;
    // An item related to several of `items` (the owner of two dogs on the page) is one object, found and expanded
    // once: expanded once per dog that reaches it, `owner(dogs(owner(dogs)))` multiplied at each level.
    const children = new Map<Item, number>();
    const sizes = new Map<Item, number>();
    // Each related item is written once under each time an item that reaches it is written.
    const reached = (item: Item, child: Item): void => {
      const times = written.times?.get(item) ?? 1;
      children.set(child, (children.get(child) ?? 0) + times);
      let size = sizes.get(child);
      if (size === undefined) sizes.set(child, (size = writtenSize(child, nested.scalars)));
      written.budget.items -= times;
      written.budget.size -= size * times;
    };
    const exceeded = (): boolean => written.budget.items < 0 || written.budget.size < 0;
    if (association.kind === 'one') {
      const keys = [
        ...new Set(items.map((item) => item[association.field]).filter((id): id is string => typeof id === 'string')),
      ];
      const related = await storage.fetchRelated(association, scope, keys, 1);
      for (const item of items) {
        const key = item[association.field];
        const found = (typeof key === 'string' && related.get(key)?.[0]) || null;
        attach(item, name, found);
        if (found) reached(item, found);
      }
      if (exceeded()) throw tooLarge();
    } else {
      const byId = new Map<string, Item[]>();
      for (const item of items) {
        const same = byId.get(item.id!);
        if (same) same.push(item);
        else byId.set(item.id!, [item]);
      }
      const keys = [...byId.keys()];
      for (let start = 0; start < keys.length;) {
        // As many parents as the budget left could hold full arrays of, and never fewer than CHUNK_LEAST.
        const chunk = keys.slice(
          start,
          (start += Math.max(CHUNK_LEAST, Math.floor(written.budget.items / NESTED_LIMIT))),
        );
        const related = await storage.fetchRelated(association, scope, chunk, NESTED_LIMIT);
        for (const key of chunk) {
          const list = related.get(key) ?? [];
          for (const item of byId.get(key)!) {
            attach(item, name, list);
            for (const child of list) reached(item, child);
          }
        }
        if (exceeded()) throw tooLarge();
      }
    }
    if (children.size > 0 && nested.associations.length > 0)
      await expandAssociations(storage, target, scope, [...children.keys()], nested, {
        times: children,
        budget: written.budget,
      });
  }
}
