// Documents: the envelopes of SPEC §2 as plain values, shaped once and then serialized per format.
import type { Item } from '../resources/definition.js';
import { relatedOf } from '../plan/expand.js';
import type { Selection } from '../query/selection.js';
import type { Format } from './formats.js';
import { JsonList } from './json-list.js';
import { toJson } from './json.js';
import { toXml } from './xml.js';

export type DocumentValue = string | number | null | DocumentValue[] | { [key: string]: DocumentValue };
export type Document = { [key: string]: DocumentValue };

/**
 * An item with only the selected fields, in the order they were asked for. A single association
 * is the bare object or null; an array association is rendered like a list (SPEC §2).
 */
export function shapeItem(item: Item, selection: Selection): { [key: string]: DocumentValue } {
  // Storage builds items with the represented fields in order, so the default needs no copy.
  if (selection.whole) return item;
  const shaped: { [key: string]: DocumentValue } = {};
  for (const name of selection.order) {
    if (name in item) {
      shaped[name] = item[name] as DocumentValue;
      continue;
    }
    const association = selection.associations.find((candidate) => candidate.name === name);
    if (!association) continue;
    const related = relatedOf(item, name) ?? null;
    shaped[name] = Array.isArray(related)
      ? related.map((child) => ({ [association.element]: shapeItem(child, association.selection) }))
      : related && shapeItem(related, association.selection);
  }
  return shaped;
}

export function itemDocument(singular: string, item: Item, selection: Selection): Document {
  return { [singular]: shapeItem(item, selection) };
}

export function listDocument(plural: string, singular: string, items: readonly Item[], selection: Selection): Document {
  return { [plural]: items.map((item) => ({ [singular]: shapeItem(item, selection) })) };
}

/** What an operation answers with: a document, or a list already in JSON. */
export type Body = Document | JsonList;

export function countDocument(count: number): Document {
  return { count };
}

export function serialize(format: Format, body: Body): string {
  if (format === 'json') return toJson(body);
  return toXml(body instanceof JsonList ? body.document() : body);
}
