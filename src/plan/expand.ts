// Loads the associations a `fields` selection names, level by level: one query per association node, never per row.
import { ApiError } from '../errors.js';
import type { Selection } from '../query/selection.js';
import type { Item, ResourceDef } from '../resources/definition.js';
import { resourceByName } from '../resources/index.js';
import type { Scope, Storage, TenantScope } from '../storage/storage.js';

/** A nested array holds at most this many associated items (SPEC §3); the nested path pages through all. */
const NESTED_LIMIT = 100;

/**
 * The most nested items one answer may hold, counted as written: an item that a nested array reaches from several
 * items is written under each. Four levels of 100 reach 100 million: `dogs?limit=100&fields=owner(dogs(owner(dogs)))`
 * over one owner's dogs wrote 25 MB and took 234 MB. The cap leaves every selection of real use, and makes that one a
 * 400.
 */
const NESTED_ANSWER_MOST = 100_000;

const RELATED = Symbol('related');

/**
 * How many times each item of a level is written in the answer (the page's items once each), and how many nested
 * items the answer may still hold.
 */
interface Written {
  readonly times: ReadonlyMap<Item, number> | undefined;
  readonly budget: { left: number };
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
    budget: { left: NESTED_ANSWER_MOST },
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
    // Each related item is written once under each time an item that reaches it is written.
    const reached = (item: Item, child: Item): void => {
      const times = written.times?.get(item) ?? 1;
      children.set(child, (children.get(child) ?? 0) + times);
      written.budget.left -= times;
    };
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
    } else {
      const keys = [...new Set(items.map((item) => item.id!))];
      const related = await storage.fetchRelated(association, scope, keys, NESTED_LIMIT);
      for (const item of items) {
        const list = related.get(item.id!) ?? [];
        attach(item, name, list);
        for (const child of list) reached(item, child);
      }
    }
    if (written.budget.left < 0) {
      throw new ApiError(
        'answerTooLarge',
        `This fields selection would write more than ${NESTED_ANSWER_MOST.toLocaleString('en')} nested items in one ` +
          'answer: a nested array is written again under every item that reaches it. Select fewer levels, ask for ' +
          'a smaller limit, or page through a nested path such as /owners/<id>/dogs.',
      );
    }
    if (children.size > 0 && nested.associations.length > 0)
      await expandAssociations(storage, target, scope, [...children.keys()], nested, {
        times: children,
        budget: written.budget,
      });
  }
}
