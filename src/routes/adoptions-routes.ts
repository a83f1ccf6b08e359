// GET /adoptions: the one open operation — adoptable dogs of every tenant, public fields only, CORS for any origin.
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { pagingHeaders, prefersExactCount } from '../http/links.js';
import { parseFilters, parseLimit, parseOffset, parseSort, single } from '../query/collection.js';
import { parseFields } from '../query/fields.js';
import type { Selection } from '../query/selection.js';
import { listDocument } from '../representation/document.js';
import type { ResourceDef } from '../resources/definition.js';
import { dogs } from '../resources/dogs.js';
import { ALL_TENANTS } from '../storage/storage.js';
import { checkParams, type RouteDeps } from './operations.js';

/** What anyone may see of a dog up for adoption. */
export const PUBLIC_FIELDS = ['id', 'name', 'furColor', 'location'] as const;

/** A public view of the dogs table: only what anyone may see of a dog up for adoption. */
export const adoptableDogs: ResourceDef = {
  name: 'dogs',
  singular: 'dog',
  description: 'A dog up for adoption, as anyone may see it.',
  fields: { name: dogs.fields.name!, furColor: dogs.fields.furColor!, location: dogs.fields.location! },
  filters: { color: 'furColor', location: 'location' },
  associations: {},
};

export function adoptionsEndpoint({ storage, config }: RouteDeps): Endpoint {
  return {
    path: '/adoptions',
    open: true,
    cors: true,
    operations: {
      GET: {
        async run(context) {
          const { query } = context;
          checkParams(context, ['fields', 'limit', 'offset', 'sort', 'color', 'location']);
          const selection = publicSelection(single(query, 'fields'));
          const sort = parseSort(adoptableDogs, query, PUBLIC_FIELDS);
          const filters = [...parseFilters(adoptableDogs, query), { field: 'state', values: ['adoptable'], exact: true }];
          const limit = parseLimit(query);
          const offset = parseOffset(query);
          const page = await storage.list(adoptableDogs, ALL_TENANTS, { filters, sort, limit, offset });
          const total = prefersExactCount(context.request) ? await storage.count(adoptableDogs, ALL_TENANTS, { filters }) : undefined;
          return {
            status: 200,
            document: listDocument('dogs', 'dog', page.items, selection),
            headers: pagingHeaders(context.request, config.publicUrl, { limit, offset, hasMore: page.hasMore, total }),
          };
        },
      },
    },
  };
}

function publicSelection(fields: string | undefined): Selection {
  if (fields === undefined) return { scalars: PUBLIC_FIELDS, associations: [], order: PUBLIC_FIELDS };
  const parsed = parseFields(fields);
  const wrong = !parsed.ok ? undefined : parsed.nodes.find((node) => node.children || !(PUBLIC_FIELDS as readonly string[]).includes(node.name));
  if (!parsed.ok || wrong) {
    const problem = !parsed.ok ? parsed.problem : `"${wrong!.name}" is not a public field of an adoptable dog`;
    throw new ApiError('fieldsInvalid', `The fields parameter is not valid: ${problem}. Valid fields here: ${PUBLIC_FIELDS.join(', ')}.`);
  }
  const names = parsed.nodes.map((node) => node.name);
  return { scalars: names, associations: [], order: names };
}
