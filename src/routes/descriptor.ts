// An operation's contract (parameters, body, answers): the runtime parameter check and the OpenAPI builder both read
// it.
import { PATH_CONTROL_PARAMS } from '../query/collection.js';
import type { AssociationDef, ResourceDef } from '../resources/definition.js';

/** A nested path: the items of a resource that one `parent` item reaches through `association`. */
export interface Nesting {
  readonly parent: ResourceDef;
  /** The association's name, also the path segment after the parent's id: `dogs`. */
  readonly name: string;
  readonly association: AssociationDef;
}

type ParameterKind =
  | 'id'
  | 'fields'
  | 'limit'
  | 'offset'
  | 'sort'
  | 'q'
  | 'filter'
  | 'types'
  | 'method'
  | 'currency'
  | 'amount'
  | 'condition'
  | 'preference'
  | 'idempotency';

export interface ParameterDescriptor {
  /** As the client sends it: `limit`, `color`, `If-Match`. */
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly kind: ParameterKind;
  /** The OpenAPI parameter component that gives its schema and description: `limit`, `dogs.fields`, `q.required`. */
  readonly component: string;
  readonly required?: boolean;
}

/**
 * What an answer carries: `item` (every field) / `selected-item` (as `fields` selects it) / `list` of the operation's
 * resource, `public-list` of the adoption view.
 */
export type DocumentKind =
  'item' | 'selected-item' | 'list' | 'public-list' | 'count' | 'results' | 'conversion' | 'none' | 'not-modified';

export interface AnswerDescriptor {
  /** `created`: 200 in v1, 201 with Location in v2 (SPEC §8). */
  readonly status: 200 | 'created' | 304;
  readonly document: DocumentKind;
  /** Headers beside the ones every answer has (X-Request-Id, Vary, RateLimit-*). */
  readonly headers: readonly string[];
}

export interface BodyDescriptor {
  /** The create schema (what a new item needs) or the update schema (any subset of the fields). */
  readonly schema: 'create' | 'update';
  readonly required: boolean;
}

interface Contract {
  /** Path, query and header parameters, in the order the documentation lists them. */
  readonly parameters: readonly ParameterDescriptor[];
  readonly body?: BodyDescriptor;
  readonly answers: readonly AnswerDescriptor[];
  /** The query parameters the runtime check lets through: the descriptor's, then the control ones. */
  readonly accepted: readonly string[];
}

/** The operations of a resource's own and nested paths, on `resource` (the items answered or written). */
export type ResourceOperationKind =
  'list' | 'count' | 'create' | 'read' | 'update' | 'remove' | 'nestedList' | 'nestedSearch' | 'nestedCreate';

export type ResourceOperationDescriptor = Contract & {
  readonly kind: ResourceOperationKind;
  readonly resource: ResourceDef;
  readonly nesting?: Nesting;
};

/** The service-wide operations: GET /search, /adoptions and /convert. */
export type ServiceOperationDescriptor = Contract & { readonly kind: 'search' | 'adoptions' | 'convert' };

export type OperationDescriptor = ResourceOperationDescriptor | ServiceOperationDescriptor;

type Identity =
  | { kind: ResourceOperationKind; resource: ResourceDef; nesting?: Nesting }
  | { kind: 'search' | 'adoptions' | 'convert' };

/** A descriptor from its identity and contract; the accepted names are worked out here, once, not per request. */
export function describe(
  identity: Identity,
  parameters: readonly ParameterDescriptor[],
  answers: readonly AnswerDescriptor[],
  body?: BodyDescriptor,
): OperationDescriptor {
  const accepted = [
    ...parameters.filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name),
    ...PATH_CONTROL_PARAMS,
  ];
  return { ...identity, parameters, answers, accepted, ...(body ? { body } : {}) };
}

const inQuery = (name: string, kind: ParameterKind, component = name): ParameterDescriptor => ({
  name,
  in: 'query',
  kind,
  component,
});
const inHeader = (name: string, kind: ParameterKind): ParameterDescriptor => ({
  name,
  in: 'header',
  kind,
  component: name,
});

export const ID: ParameterDescriptor = { name: 'id', in: 'path', kind: 'id', component: 'id', required: true };
export const LIMIT = inQuery('limit', 'limit');
export const OFFSET = inQuery('offset', 'offset');
export const Q = inQuery('q', 'q');
export const Q_REQUIRED: ParameterDescriptor = { ...inQuery('q', 'q', 'q.required'), required: true };
export const TYPES = inQuery('types', 'types');
/** Only where the operation's path offers more than GET, so that an override means something there. */
export const METHOD = inQuery('method', 'method');
export const IF_NONE_MATCH = inHeader('If-None-Match', 'condition');
export const IF_MATCH = inHeader('If-Match', 'condition');
export const PREFER = inHeader('Prefer', 'preference');
export const IDEMPOTENCY_KEY = inHeader('Idempotency-Key', 'idempotency');

export function currency(name: 'from' | 'to'): ParameterDescriptor {
  return { ...inQuery(name, 'currency'), required: true };
}

export const AMOUNT: ParameterDescriptor = { ...inQuery('amount', 'amount'), required: true };

/** `fields` of a resource's representation; `prefix` names the components (`dogs.fields`, `adoptions.fields`). */
export function fieldsOf(prefix: string): ParameterDescriptor {
  return inQuery('fields', 'fields', `${prefix}.fields`);
}

export function sortOf(prefix: string): ParameterDescriptor {
  return inQuery('sort', 'sort', `${prefix}.sort`);
}

/** One query parameter per filter of `def`: `color`, `state`, … */
export function filtersOf(def: ResourceDef, prefix = def.name): ParameterDescriptor[] {
  return Object.keys(def.filters).map((filter) => inQuery(filter, 'filter', `${prefix}.${filter}`));
}

/** The headers of a page: its ETag, the Link to its neighbours, and the total on request. */
export const PAGE_HEADERS = ['ETag', 'Link', 'X-Total-Count', 'Preference-Applied'] as const;

export const NOT_MODIFIED: AnswerDescriptor = { status: 304, document: 'not-modified', headers: [] };
