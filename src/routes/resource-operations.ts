// The operations of a resource, made from its definition: validate → storage (→ expand) → represent.
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { etagOf, ifMatches } from '../http/conditional.js';
import type { ApiContext } from '../http/context.js';
import type { Operation } from '../http/endpoint.js';
import type { Outcome } from '../http/respond.js';
import { pageCounts, pagingHeaders } from '../http/links.js';
import { expand } from '../plan/expand.js';
import { readInput } from '../query/write-values.js';
import { checkXmlText } from '../query/xml-text.js';
import {
  checkKnownParams,
  isSearchText,
  parseFilters,
  parseLimit,
  parseOffset,
  parseQ,
  parseSort,
  single,
} from '../query/collection.js';
import { defaultSelection, resolveFields, type Selection } from '../query/selection.js';
import { countDocument, itemDocument, listDocument, serialize, type Body } from '../representation/document.js';
import { JsonList } from '../representation/json-list.js';
import type { AssociationDef, Item, ResourceDef } from '../resources/definition.js';
import { resourceByName } from '../resources/index.js';
import { perDefinition } from '../resources/per-definition.js';
import { ID_PATTERN } from '../storage/ids.js';
import type { ListQuery, Precondition, Scope, Storage } from '../storage/storage.js';
import type { Nesting, OperationDescriptor } from './descriptor.js';
import {
  countDescriptor,
  createDescriptor,
  listDescriptor,
  readDescriptor,
  removeDescriptor,
  updateDescriptor,
} from './resource-descriptors.js';

export type { Nesting } from './descriptor.js';

export interface RouteDeps {
  readonly storage: Storage;
  readonly config: Config;
}

/** GET a collection (top-level or nested): fields, paging, filters, sort, q; `searchOnly` makes q required. */
export function listOperation(
  def: ResourceDef,
  { storage, config }: RouteDeps,
  nesting?: Nesting,
  searchOnly = false,
): Operation {
  const descriptor = listDescriptor(def, nesting, searchOnly);
  return {
    descriptor,
    async run(context) {
      const { query, scope } = context;
      checkParams(context, descriptor);
      const selection = selectionOf(def, context);
      const q = parseQ(query);
      if (searchOnly && q === undefined)
        throw new ApiError('searchInvalid', 'q is required here: give the search text, 1 to 200 characters.');
      const filters = parseFilters(def, query);
      const sort = parseSort(def, query);
      const limit = parseLimit(query);
      const offset = parseOffset(query);
      // Parameters come before the item (SPEC §8): the parent is looked up once they are all valid.
      const related = nesting && (await parentRelation(storage, nesting, context));
      const wanted: ListQuery = { filters, q, related, sort, limit, offset };
      // The count takes the same criteria; it ignores the sort and the page.
      const count = () => storage.count(def, scope, wanted);
      const { document, hasMore, size } = await listPage(storage, def, scope, wanted, selection);
      const counts = await pageCounts(context.exactCount, offset, size, count);
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
  };
}

/**
 * A page of a collection as its list document. Without associations to expand, the storage writes
 * the items' JSON itself (Storage.listJson), the cheaper way for the common case; with them, the
 * items are read, their associations loaded, and the document shaped.
 */
export async function listPage(
  storage: Storage,
  def: ResourceDef,
  scope: Scope,
  query: ListQuery,
  selection: Selection,
): Promise<{ document: Body; hasMore: boolean; size: number }> {
  if (selection.associations.length === 0) {
    const page = await storage.listJson(def, scope, query, selection.scalars);
    const document = new JsonList(def.name, def.singular, page.items);
    return { document, hasMore: page.hasMore, size: page.items.length };
  }
  const page = await storage.list(def, scope, query);
  const expanding = expand(storage, def, scope, page.items, selection);
  if (expanding) await expanding;
  const document = listDocument(def.name, def.singular, page.items, selection);
  return { document, hasMore: page.hasMore, size: page.items.length };
}

export function countOperation(def: ResourceDef, { storage }: RouteDeps): Operation {
  const descriptor = countDescriptor(def);
  return {
    descriptor,
    async run(context) {
      checkParams(context, descriptor);
      const total = await storage.count(def, context.scope, {
        filters: parseFilters(def, context.query),
        q: parseQ(context.query),
      });
      return { status: 200, document: countDocument(total) };
    },
  };
}

/** POST a new item; nested under a parent (`/owners/<id>/dogs`), the item is created already linked to it. */
export function createOperation(def: ResourceDef, { storage, config }: RouteDeps, nesting?: Nesting): Operation {
  const descriptor = createDescriptor(def, nesting);
  return {
    descriptor,
    async run(context, claimed) {
      checkParams(context, descriptor);
      let values = readInput(def, context.input(), 'create', context.jsonInput());
      if (nesting && 'reverseField' in nesting.association) {
        const field = nesting.association.reverseField;
        const parentId = context.id ?? '';
        // Any value but the path's own, a null or empty one (which would clear it) included, contradicts the path.
        const given = values[field];
        if (given !== undefined && given !== parentId) {
          throw new ApiError(
            'fieldInvalid',
            `The body's "${field}" is ${given === null ? 'empty' : `"${String(given)}"`}, but the path creates the ` +
              `${def.singular} for ${nesting.parent.singular} "${parentId}". Leave "${field}" out, or make it the same.`,
          );
        }
        if (!(await storage.get(nesting.parent, context.scope, idOf(nesting.parent, context))))
          throw notFound(nesting.parent, parentId);
        values = { ...values, [field]: parentId };
      }
      const item = await storage.create(
        def,
        context.scope,
        values,
        claimed?.answering((created) => createdOutcome(def, config, context.version, created)),
      );
      return createdOutcome(def, config, context.version, item);
    },
  };
}

/** The answer to a create: 200 in v1, 201 with Location from v2. */
function createdOutcome(def: ResourceDef, config: Config, version: number, item: Item): Outcome {
  const document = itemDocument(def.singular, item, defaultSelection(def));
  if (version < 2) return { status: 200, document };
  return { status: 201, document, headers: { location: `${config.publicUrl}/v${version}/${def.name}/${item.id}` } };
}

export function readOperation(def: ResourceDef, { storage }: RouteDeps): Operation {
  const descriptor = readDescriptor(def);
  return {
    descriptor,
    async run(context) {
      if (context.id === 'search' && context.query.q !== undefined) throw searchOnItemPath(def, context);
      checkParams(context, descriptor);
      const selection = selectionOf(def, context);
      const id = idOf(def, context);
      const item = await storage.get(def, context.scope, id);
      if (!item) throw notFound(def, id);
      const expanding = expand(storage, def, context.scope, [item], selection);
      if (expanding) await expanding;
      return { status: 200, document: itemDocument(def.singular, item, selection) };
    },
  };
}

export function updateOperation(def: ResourceDef, { storage }: RouteDeps): Operation {
  const descriptor = updateDescriptor(def);
  return {
    descriptor,
    async run(context) {
      checkParams(context, descriptor);
      const values = readInput(def, context.input(), 'update', context.jsonInput());
      const id = idOf(def, context);
      const item = await storage.update(def, context.scope, id, values, ifMatchCheck(def, context));
      if (!item) throw notFound(def, id);
      return { status: 200, document: itemDocument(def.singular, item, defaultSelection(def)) };
    },
  };
}

export function removeOperation(def: ResourceDef, { storage }: RouteDeps): Operation {
  const descriptor = removeDescriptor(def);
  return {
    descriptor,
    async run(context) {
      checkParams(context, descriptor);
      const id = idOf(def, context);
      if (!(await storage.remove(def, context.scope, id, ifMatchCheck(def, context)))) throw notFound(def, id);
      return { status: 200 };
    },
  };
}

/**
 * The query parameters the descriptor accepts; on an overridden GET the query string carries the fields, which the body
 * rules check instead.
 */
export function checkParams(context: ApiContext<Scope>, descriptor: OperationDescriptor): void {
  if (context.fieldsInQuery) return;
  checkKnownParams(context.query, descriptor.accepted, context.overridden);
}

/**
 * Resolved `fields` selections by resource and text: clients repeat the same few, and parsing one costs more than using
 * it.
 */
const resolvedSelections = perDefinition((_def: ResourceDef) => new Map<string, Selection>());
const SELECTIONS_PER_RESOURCE = 256;

/** The request's `fields` resolved against `def`'s representation, or the whole default one. */
export function selectionOf(def: ResourceDef, context: ApiContext<Scope>): Selection {
  const fields = single(context.query, 'fields');
  if (fields === undefined) return defaultSelection(def);
  const cache = resolvedSelections(def);
  let selection = cache.get(fields);
  if (!selection) {
    selection = resolveFields(def, fields, resourceByName);
    if (cache.size >= SELECTIONS_PER_RESOURCE) cache.clear();
    cache.set(fields, selection);
  }
  return selection;
}

/** The parent of a nested path must exist (and be visible): 404 otherwise. */
async function parentRelation(
  storage: Storage,
  nesting: Nesting,
  context: ApiContext,
): Promise<{ association: AssociationDef; parentId: string }> {
  const parentId = idOf(nesting.parent, context);
  if (!(await storage.get(nesting.parent, context.scope, parentId))) throw notFound(nesting.parent, parentId);
  return { association: nesting.association, parentId };
}

/** The path's id; one that cannot be an id is not found, one with a character XML cannot carry a 400 (SPEC §13). */
function idOf(def: ResourceDef, context: ApiContext): string {
  const id = context.id ?? '';
  if (ID_PATTERN.test(id)) return id;
  checkXmlText(id, 'The id in the path');
  throw notFound(def, id);
}

/** With If-Match, the write goes ahead only if the item's current ETag (a GET without fields) matches. */
function ifMatchCheck(def: ResourceDef, context: ApiContext): Precondition | undefined {
  const header = context.ifMatch;
  if (header === undefined) return undefined;
  return (current) => {
    const etag = etagOf(serialize(context.format, itemDocument(def.singular, current, defaultSelection(def))));
    if (!ifMatches(header, etag)) {
      throw new ApiError(
        'preconditionFailed',
        `If-Match ${header} does not match the current ETag ${etag} of this ${def.singular}: it changed since ` +
          `you read it. Nothing was changed; GET it again and retry with the new ETag.`,
      );
    }
  };
}

/**
 * `GET /dogs/search?q=rex` reaches the item path with the id "search" (a reserved word, never an id: SPEC §1), where q
 * is not accepted; the 400 says where a search goes instead, with the text given when it is search text.
 */
function searchOnItemPath(def: ResourceDef, context: ApiContext): ApiError {
  const q = context.query.q;
  const text = typeof q === 'string' && isSearchText(q) ? new URLSearchParams({ q }).toString() : 'q=…';
  const version = `/v${context.version}`;
  return new ApiError(
    'unknownParameter',
    `The query parameter "q" is not accepted here: ${version}/${def.name}/search reads as the path of one ` +
      `${def.singular}, and "search" is never an id. Search the ${def.name} with ${version}/${def.name}?${text}, or ` +
      `every resource with ${version}/search?${text}.`,
  );
}

function notFound(def: ResourceDef, id: string): ApiError {
  return new ApiError(
    'itemNotFound',
    `There is no ${def.singular} with the id "${id}". It may have been deleted, or the id is mistyped; GET ` +
      `/${def.name} lists the current ones.`,
  );
}
