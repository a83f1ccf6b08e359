// The JSON serializer: a document is already in its JSON shape.
import type { Document } from './document.js';

export function toJson(document: Document): string {
  return JSON.stringify(document);
}
