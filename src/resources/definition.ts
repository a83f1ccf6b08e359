// The shape of a resource definition: fields, filters and associations that drive routes, storage and docs.
import { perDefinition } from './per-definition.js';

/** A value as stored and represented: every field of the API is text or null. */
export type FieldValue = string | null;

/** One stored item, keyed by the API's field names (id, createdAt, updatedAt included). */
export type Item = Record<string, FieldValue>;

/** The values of a write: text or null per field, and a list of ids for each write-only set. */
export type WriteValues = Readonly<Record<string, FieldValue | readonly string[]>>;

/** `ref`: the id of one item of another resource; `refs`: a write-only set of ids kept in a link table. */
type FieldKind = 'text' | 'email' | 'enum' | 'ref' | 'refs';

/** A many-to-many link table: the column holding this side's id and the one holding the other's. */
export interface LinkRef {
  readonly table: string;
  readonly selfColumn: string;
  readonly targetColumn: string;
}

export interface FieldDef {
  readonly kind: FieldKind;
  /** Must have a value on create and can never be cleared. */
  readonly required?: boolean;
  /** For enums: the values accepted. */
  readonly values?: readonly string[];
  /** The value given on create when the body has none. */
  readonly default?: string;
  /** For ref and refs: the resource the ids point to. */
  readonly ref?: string;
  /** For refs: the link table that holds the set. */
  readonly link?: LinkRef;
  /** Searched by `q`. */
  readonly searchable?: boolean;
  readonly description: string;
  readonly example?: string;
}

/**
 * How an item reaches associated items: through a ref field of its own (`one`), a ref field of
 * the target pointing back (`many` by `reverseField`), or a link table (`many` by `link`).
 */
export type AssociationDef =
  | { readonly kind: 'one'; readonly target: string; readonly field: string }
  | {
      readonly kind: 'many';
      readonly target: string;
      readonly reverseField: string;
      readonly nestedPath?: boolean;
      /** The nested path also creates items already linked (POST) and searches them (`…/search?q=`). */
      readonly nestedCreate?: boolean;
    }
  | { readonly kind: 'many'; readonly target: string; readonly link: LinkRef; readonly nestedPath?: boolean };

export interface ResourceDef {
  /** The collection name, also the path segment and the table: `dogs`. */
  readonly name: string;
  /** The element name of one item in the envelopes: `dog`. */
  readonly singular: string;
  readonly description: string;
  /** Writable fields in representation order; `id`, `createdAt` and `updatedAt` are implicit. */
  readonly fields: Readonly<Record<string, FieldDef>>;
  /** Query parameter → the field it filters on (case-insensitive exact match, comma = any of). */
  readonly filters: Readonly<Record<string, string>>;
  /** Associations readable through nested `fields` selection. */
  readonly associations: Readonly<Record<string, AssociationDef>>;
  /** A read-only view whose representation leaves out `createdAt` and `updatedAt` (the public adoption view). */
  readonly hidesTimestamps?: boolean;
}

export const READ_ONLY_FIELDS = ['id', 'createdAt', 'updatedAt'] as const;

/** The fields of the default representation, in order (computed once per definition). */
export const representedFields = perDefinition((def: ResourceDef): readonly string[] => {
  const readable = Object.entries(def.fields)
    .filter(([, field]) => field.kind !== 'refs')
    .map(([name]) => name);
  return Object.freeze(def.hidesTimestamps ? ['id', ...readable] : ['id', ...readable, 'createdAt', 'updatedAt']);
});

/** Fields `sort` accepts: every scalar field of the representation. */
export function sortableFields(def: ResourceDef): readonly string[] {
  return representedFields(def);
}

/**
 * The sorts an index reads in order, in both directions (docs/decisions.md, "Sorting"): the name, which lists show,
 * and the creation time, newest first. The items of migration 1 all have both; a sort by another field reads and
 * sorts the tenant's items.
 */
export const SORT_INDEXED: readonly string[] = ['name', 'createdAt'];

export const searchableFields = perDefinition((def: ResourceDef): readonly string[] =>
  Object.freeze(
    Object.entries(def.fields)
      .filter(([, field]) => field.searchable)
      .map(([name]) => name),
  ),
);

/** Column names already worked out: the definitions' field names, a few dozen (SQL texts are written per request). */
const columns = new Map<string, string>();
const MOST_COLUMNS = 1000;

/** camelCase field name → snake_case column name. */
export function columnOf(field: string): string {
  let column = columns.get(field);
  if (column === undefined) {
    column = field.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (columns.size < MOST_COLUMNS) columns.set(field, column);
  }
  return column;
}
