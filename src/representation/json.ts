// The JSON serializer: a document is already in its JSON shape, and a JsonList's items are already JSON.
import type { Body } from './document.js';
import { JsonList } from './json-list.js';

export function toJson(body: Body): string {
  if (!(body instanceof JsonList)) return JSON.stringify(body);
  const { plural, singular, items } = body;
  // {"dogs":[{"dog":<item>},{"dog":<item>}]}, exactly what JSON.stringify writes for body.document().
  const open = `{${JSON.stringify(singular)}:`;
  const elements = items.length === 0 ? '' : `${open}${items.join(`},${open}`)}}`;
  return `{${JSON.stringify(plural)}:[${elements}]}`;
}
