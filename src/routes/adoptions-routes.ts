// GET /adoptions: the one open operation — adoptable dogs of every tenant, public fields only, CORS for any origin.
import type { Endpoint } from '../http/endpoint.js';
import { pageCounts, pagingHeaders } from '../http/links.js';
import { parseFilters, parseLimit, parseOffset, parseSort } from '../query/collection.js';
import { representedFields, type ResourceDef } from '../resources/definition.js';
import { dogs } from '../resources/dogs.js';
import {
  describe,
  fieldsOf,
  filtersOf,
  IF_NONE_MATCH,
  LIMIT,
  NOT_MODIFIED,
  OFFSET,
  PAGE_HEADERS,
  PREFER,
  sortOf,
} from './descriptor.js';
import { checkParams, listPage, selectionOf, type RouteDeps } from './resource-operations.js';

/** A public view of the dogs table: only what anyone may see of a dog up for adoption. */
export const adoptableDogs: ResourceDef = {
  name: 'dogs',
  singular: 'dog',
  description: 'A dog up for adoption, as anyone may see it.',
  fields: { name: dogs.fields.name!, furColor: dogs.fields.furColor!, location: dogs.fields.location! },
  filters: { color: 'furColor', location: 'location' },
  associations: {},
  hidesTimestamps: true,
};

/** What anyone may see of a dog up for adoption: id, name, furColor, location. */
export const PUBLIC_FIELDS = representedFields(adoptableDogs);

/** Its own components (`adoptions.fields`, …): the view's fields and filters, not the dogs'. */
const DESCRIPTOR = describe(
  { kind: 'adoptions' },
  [
    fieldsOf('adoptions'),
    LIMIT,
    OFFSET,
    sortOf('adoptions'),
    ...filtersOf(adoptableDogs, 'adoptions'),
    IF_NONE_MATCH,
    PREFER,
  ],
  [{ status: 200, document: 'public-list', headers: PAGE_HEADERS }, NOT_MODIFIED],
);

export function adoptionsEndpoint({ storage, config }: RouteDeps): Endpoint {
  return {
    path: '/adoptions',
    open: true,
    operations: {
      GET: {
        descriptor: DESCRIPTOR,
        async run(context) {
          const { query } = context;
          checkParams(context, DESCRIPTOR);
          // The view's representation is its public fields, so fields and sort accept nothing else.
          const selection = selectionOf(adoptableDogs, context);
          const sort = parseSort(adoptableDogs, query);
          const filters = [
            ...parseFilters(adoptableDogs, query),
            { field: 'state', values: ['adoptable'], exact: true },
          ];
          const limit = parseLimit(query);
          const offset = parseOffset(query);
          // The access stage gave the public view: every tenant's rows, read-only.
          const { document, hasMore, size } = await listPage(
            storage,
            adoptableDogs,
            context.scope,
            { filters, sort, limit, offset },
            selection,
          );
          const counts = await pageCounts(context.exactCount, offset, size, () =>
            storage.count(adoptableDogs, context.scope, { filters }),
          );
          return {
            status: 200,
            document,
            headers: pagingHeaders(context.url, config.publicUrl, { limit, offset, hasMore, ...counts }),
          };
        },
      },
    },
  };
}
