// A list whose items are JSON texts already (Storage.listJson): JSON puts them in as they are, other formats read them
// back.
import type { Document, DocumentValue } from './document.js';

export class JsonList {
  constructor(
    readonly plural: string,
    readonly singular: string,
    readonly items: readonly string[],
  ) {}

  /** The list document the texts stand for. */
  document(): Document {
    return { [this.plural]: this.items.map((text) => ({ [this.singular]: JSON.parse(text) as DocumentValue })) };
  }
}
