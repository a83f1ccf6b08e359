// The five operations and count of any resource, generated from its definition: validate → storage → represent.
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { ApiContext } from '../http/context.js';
import type { Endpoint, Operation } from '../http/endpoint.js';
import { readInput } from '../query/body.js';
import { checkKnownParams, parseFilters, parseLimit, parseOffset, parseQ, parseSort, single } from '../query/collection.js';
import { defaultSelection, resolveFields, type Selection } from '../query/selection.js';
import { etagOf, ifMatches } from '../http/conditional.js';
import { pagingHeaders, prefersExactCount } from '../http/links.js';
import { countDocument, itemDocument, listDocument, serialize } from '../representation/document.js';
import type { ResourceDef } from '../resources/definition.js';
import { resourceByName } from '../resources/index.js';
import { ID_PATTERN } from '../storage/ids.js';
import type { Precondition, Storage } from '../storage/storage.js';

export interface RouteDeps {
  readonly storage: Storage;
  readonly config: Config;
}

export function resourceEndpoints(def: ResourceDef, deps: RouteDeps): Endpoint[] {
  const { storage, config } = deps;
  const filters = Object.keys(def.filters);

  const list: Operation = {
    async run(context) {
      const { query } = context;
      checkParams(context, ['fields', 'limit', 'offset', 'sort', 'q', ...filters]);
      const selection = selectionOf(def, context);
      const criteria = { filters: parseFilters(def, query), q: parseQ(query) };
      const limit = parseLimit(query);
      const offset = parseOffset(query);
      const page = await storage.list(def, context.scope, { ...criteria, sort: parseSort(def, query), limit, offset });
      const total = prefersExactCount(context.request) ? await storage.count(def, context.scope, criteria) : undefined;
      return {
        status: 200,
        document: listDocument(def.name, def.singular, page.items, selection),
        headers: pagingHeaders(context.request, config.publicUrl, { limit, offset, hasMore: page.hasMore, total }),
      };
    },
  };

  const count: Operation = {
    async run(context) {
      checkParams(context, ['q', ...filters]);
      const total = await storage.count(def, context.scope, { filters: parseFilters(def, context.query), q: parseQ(context.query) });
      return { status: 200, document: countDocument(total) };
    },
  };

  const create: Operation = {
    async run(context) {
      checkParams(context, []);
      const item = await storage.create(def, context.scope, readInput(def, context.input(), 'create'));
      const document = itemDocument(def.singular, item, defaultSelection(def));
      if (context.version < 2) return { status: 200, document };
      return { status: 201, document, headers: { location: `${config.publicUrl}/v${context.version}/${def.name}/${item.id}` } };
    },
  };

  const read: Operation = {
    async run(context) {
      checkParams(context, ['fields']);
      const selection = selectionOf(def, context);
      const item = await storage.get(def, context.scope, idOf(def, context));
      if (!item) throw notFound(def, idOf(def, context));
      return { status: 200, document: itemDocument(def.singular, item, selection) };
    },
  };

  const update: Operation = {
    async run(context) {
      checkParams(context, []);
      const id = idOf(def, context);
      const values = readInput(def, context.input(), 'update');
      const item = await storage.update(def, context.scope, id, values, ifMatchCheck(def, context));
      if (!item) throw notFound(def, id);
      return { status: 200, document: itemDocument(def.singular, item, defaultSelection(def)) };
    },
  };

  const remove: Operation = {
    async run(context) {
      checkParams(context, []);
      const id = idOf(def, context);
      if (!(await storage.remove(def, context.scope, id, ifMatchCheck(def, context)))) throw notFound(def, id);
      return { status: 200 };
    },
  };

  return [
    { path: `/${def.name}`, operations: { GET: list, POST: create } },
    { path: `/${def.name}/count`, operations: { GET: count } },
    { path: `/${def.name}/:id`, operations: { GET: read, PUT: update, DELETE: remove } },
  ];
}

/** On an overridden GET the query string carries the fields, which the body rules check instead. */
function checkParams(context: ApiContext, accepted: readonly string[]): void {
  if (context.overridden && context.request.method === 'GET') return;
  checkKnownParams(context.query, accepted);
}

function selectionOf(def: ResourceDef, context: ApiContext): Selection {
  const fields = single(context.query, 'fields');
  return fields === undefined ? defaultSelection(def) : resolveFields(def, fields, resourceByName);
}

function idOf(def: ResourceDef, context: ApiContext): string {
  const { id } = context.request.params as { id: string };
  if (!ID_PATTERN.test(id)) throw notFound(def, id);
  return id;
}

/** With If-Match, the write goes ahead only if the item's current ETag (a GET without fields) matches. */
function ifMatchCheck(def: ResourceDef, context: ApiContext): Precondition | undefined {
  const header = context.request.headers['if-match'];
  if (header === undefined) return undefined;
  return (current) => {
    const etag = etagOf(serialize(context.format, itemDocument(def.singular, current, defaultSelection(def))));
    if (!ifMatches(header, etag)) {
      throw new ApiError('preconditionFailed', `If-Match ${header} does not match the current ETag ${etag} of this ${def.singular}: it changed since you read it. Nothing was changed; GET it again and retry with the new ETag.`);
    }
  };
}

function notFound(def: ResourceDef, id: string): ApiError {
  return new ApiError('itemNotFound', `There is no ${def.singular} with the id "${id}". It may have been deleted, or the id is mistyped; GET /${def.name} lists the current ones.`);
}
