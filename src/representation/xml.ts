// The XML serializer: each key of a document is an element, an array is a run of sibling elements, null is empty.
import { XMLBuilder } from 'fast-xml-parser';
import type { Document, DocumentValue } from './document.js';

const builder = new XMLBuilder({ preserveOrder: true, suppressEmptyNode: false, processEntities: true });
const DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';

type OrderedNode = Record<string, unknown>;

export function toXml(document: Document): string {
  return DECLARATION + (builder.build(toNodes(document)) as string);
}

/** fast-xml-parser's ordered form: a list of { element: children } and { '#text': text } nodes. */
function toNodes(value: DocumentValue): OrderedNode[] {
  if (value === null) return [];
  if (Array.isArray(value)) return value.flatMap(toNodes);
  if (typeof value === 'object') return Object.entries(value).map(([name, child]) => ({ [name]: toNodes(child) }));
  return [{ '#text': String(value) }];
}
