// The service's one typed error, ApiError, thrown by catalogue name; and the catalogue read as a list.
import { catalogue, type ApiStatus, type CatalogueEntry } from './error-catalogue.js';
import { escapeEcho } from './query/xml-text.js';

export { catalogue, type ApiStatus, type CatalogueEntry };

export type ErrorName = keyof typeof catalogue;

/** The one typed error of the service: inner layers throw it by catalogue name. */
export class ApiError extends Error {
  readonly name = 'ApiError';
  readonly entry: CatalogueEntry;
  /** Extra response headers the error needs (Allow on a method error, say). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(
    readonly errorName: ErrorName,
    message: string,
    headers: Record<string, string> = {},
  ) {
    // An ApiError is an answer, not a fault: capturing a stack trace would cost more than the answer.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    // Messages repeat what was sent: escaped here once, no raw control character reaches an XML or JSON body.
    super(escapeEcho(message));
    Error.stackTraceLimit = limit;
    this.entry = catalogue[errorName];
    this.headers = headers;
  }

  get status(): ApiStatus {
    return this.entry.status;
  }

  get code(): number {
    return this.entry.code;
  }
}

/** Every catalogue entry with its name, in code order: for the portal pages and the docs. */
export function catalogueEntries(): Array<CatalogueEntry & { name: ErrorName }> {
  return (Object.entries(catalogue) as Array<[ErrorName, CatalogueEntry]>)
    .map(([name, entry]) => ({ ...entry, name }))
    .sort((a, b) => a.code - b.code);
}

export function entryByCode(code: number): (CatalogueEntry & { name: ErrorName }) | undefined {
  return catalogueEntries().find((entry) => entry.code === code);
}
