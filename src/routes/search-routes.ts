// GET /search: one search over every resource the requester can see, in the `results` envelope, best match first.
import { ApiError } from '../errors.js';
import type { Endpoint } from '../http/endpoint.js';
import { pageCounts, pagingHeaders } from '../http/links.js';
import { parseLimit, parseOffset, parseQ, single } from '../query/collection.js';
import { defaultSelection } from '../query/selection.js';
import { shapeItem, type Document } from '../representation/document.js';
import type { ResourceDef } from '../resources/definition.js';
import { resourceByName, resources } from '../resources/index.js';
import {
  describe,
  IF_NONE_MATCH,
  LIMIT,
  NOT_MODIFIED,
  OFFSET,
  PAGE_HEADERS,
  PREFER,
  Q_REQUIRED,
  TYPES,
} from './descriptor.js';
import { checkParams, type RouteDeps } from './resource-operations.js';

const DESCRIPTOR = describe(
  { kind: 'search' },
  [Q_REQUIRED, LIMIT, OFFSET, TYPES, IF_NONE_MATCH, PREFER],
  [{ status: 200, document: 'results', headers: PAGE_HEADERS }, NOT_MODIFIED],
);

export function searchEndpoint({ storage, config }: RouteDeps): Endpoint {
  return {
    path: '/search',
    operations: {
      GET: {
        descriptor: DESCRIPTOR,
        async run(context) {
          const { query, scope } = context;
          checkParams(context, DESCRIPTOR);
          const q = parseQ(query);
          if (q === undefined)
            throw new ApiError(
              'searchInvalid',
              'q is required: give the search text, 1 to 200 characters, for example /search?q=rex.',
            );
          const types = parseTypes(single(query, 'types'));
          const limit = parseLimit(query);
          const offset = parseOffset(query);
          const count = async () => {
            const each = await Promise.all(types.map((def) => storage.count(def, scope, { filters: [], q })));
            return each.reduce((sum, one) => sum + one, 0);
          };
          const { hits, hasMore } = await storage.search(scope, { q, types, limit, offset });
          const counts = await pageCounts(context.exactCount, offset, hits.length, count);
          const document: Document = {
            results: hits.map(({ def, item }) => ({ [def.singular]: shapeItem(item, defaultSelection(def)) })),
          };
          return {
            status: 200,
            document,
            headers: pagingHeaders(context.url, config.publicUrl, {
              limit,
              offset,
              hasMore,
              ...counts,
            }),
          };
        },
      },
    },
  };
}

/**
 * `types=dogs,owners` narrows the search; without it, every resource is searched. Like a filter's values, the names are
 * read in any case (`Dogs` is `dogs`) and quoted back in lower case.
 */
function parseTypes(raw: string | undefined): ResourceDef[] {
  if (raw === undefined) return [...resources];
  const names = raw
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .filter((name) => name !== '');
  const defs = names.map((name) => resourceByName(name));
  const wrong = names.find((_, index) => !defs[index]);
  if (wrong !== undefined || defs.length === 0) {
    throw new ApiError(
      'filterInvalid',
      `types names the resources to search, comma-separated, from: ` +
        `${resources.map((def) => def.name).join(', ')}${wrong === undefined ? '' : `; "${wrong}" is not one of them`}.`,
    );
  }
  return [...new Set(defs as ResourceDef[])];
}
