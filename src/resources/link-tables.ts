// The many-to-many link tables, each declared once: both resources' views of it (LinkRef) are derived from here.
import type { LinkRef } from './definition.js';

/** One side of a link table: the resource and the column holding its items' ids. */
interface LinkSide {
  readonly resource: string;
  readonly column: string;
}

/** A link table joining two resources; `seq` keeps the links in the order they were written. */
export interface LinkTable {
  readonly table: string;
  readonly sides: readonly [LinkSide, LinkSide];
}

function linkTable(table: string, first: LinkSide, second: LinkSide): LinkTable {
  return Object.freeze({ table, sides: Object.freeze([Object.freeze(first), Object.freeze(second)] as const) });
}

export const DOG_FOODS = linkTable(
  'dog_foods',
  { resource: 'dogs', column: 'dog_id' },
  { resource: 'foods', column: 'food_id' },
);
export const OWNER_VETERINARIANS = linkTable(
  'owner_veterinarians',
  { resource: 'owners', column: 'owner_id' },
  { resource: 'veterinarians', column: 'veterinarian_id' },
);

/** Every link table of the service: the expected schema (storage/expected-schema.ts) requires each one. */
export const linkTables: readonly LinkTable[] = [DOG_FOODS, OWNER_VETERINARIANS];

const views = new Map<LinkTable, Map<string, LinkRef>>();

/**
 * The link table as seen from `resource`: its column is `selfColumn`, the other side's `targetColumn`.
 * One object per side, so a `refs` field and the association that reads the same set share it.
 */
export function linkFrom(link: LinkTable, resource: string): LinkRef {
  let byResource = views.get(link);
  if (!byResource) views.set(link, (byResource = new Map()));
  let view = byResource.get(resource);
  if (!view) {
    const [first, second] = link.sides;
    const self = first.resource === resource ? first : second.resource === resource ? second : undefined;
    if (!self)
      throw new Error(`The link table ${link.table} joins ${first.resource} and ${second.resource}, not ${resource}.`);
    const other = self === first ? second : first;
    view = Object.freeze({ table: link.table, selfColumn: self.column, targetColumn: other.column });
    byResource.set(resource, view);
  }
  return view;
}
