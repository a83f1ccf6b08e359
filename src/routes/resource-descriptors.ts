// The descriptors of a resource's operations, own and nested paths: which parameters, body and answers each has.
import type { ResourceDef } from '../resources/definition.js';
import {
  describe,
  fieldsOf,
  filtersOf,
  ID,
  IDEMPOTENCY_KEY,
  IF_MATCH,
  IF_NONE_MATCH,
  LIMIT,
  METHOD,
  NOT_MODIFIED,
  OFFSET,
  PAGE_HEADERS,
  PREFER,
  Q,
  Q_REQUIRED,
  sortOf,
  type AnswerDescriptor,
  type Nesting,
  type OperationDescriptor,
  type ParameterDescriptor,
} from './descriptor.js';

/** Whether a nested path also creates (`POST /owners/{id}/dogs`), so that `method` means something on its GET. */
export function nestedCreates(nesting: Nesting): boolean {
  return 'reverseField' in nesting.association && nesting.association.nestedCreate === true;
}

const LIST_ANSWERS: readonly AnswerDescriptor[] = [
  { status: 200, document: 'list', headers: PAGE_HEADERS },
  NOT_MODIFIED,
];
const CREATED: readonly AnswerDescriptor[] = [
  { status: 'created', document: 'item', headers: ['Location', 'Idempotent-Replayed'] },
];

/**
 * A page of `def`: top-level, nested under a parent, or a nested search (q required, no override: the path offers only
 * GET).
 */
export function listDescriptor(def: ResourceDef, nesting?: Nesting, searchOnly = false): OperationDescriptor {
  const method = nesting ? !searchOnly && nestedCreates(nesting) : true;
  const parameters: ParameterDescriptor[] = [
    ...(nesting ? [ID] : []),
    fieldsOf(def.name),
    LIMIT,
    OFFSET,
    sortOf(def.name),
    searchOnly ? Q_REQUIRED : Q,
    ...filtersOf(def),
    ...(method ? [METHOD] : []),
    IF_NONE_MATCH,
    PREFER,
  ];
  if (!nesting) return describe({ kind: 'list', resource: def }, parameters, LIST_ANSWERS);
  return describe(
    { kind: searchOnly ? 'nestedSearch' : 'nestedList', resource: def, nesting },
    parameters,
    LIST_ANSWERS,
  );
}

export function countDescriptor(def: ResourceDef): OperationDescriptor {
  return describe(
    { kind: 'count', resource: def },
    [Q, ...filtersOf(def), IF_NONE_MATCH],
    [{ status: 200, document: 'count', headers: ['ETag'] }, NOT_MODIFIED],
  );
}

export function createDescriptor(def: ResourceDef, nesting?: Nesting): OperationDescriptor {
  const identity = nesting
    ? { kind: 'nestedCreate' as const, resource: def, nesting }
    : { kind: 'create' as const, resource: def };
  return describe(identity, [...(nesting ? [ID] : []), METHOD, IDEMPOTENCY_KEY], CREATED, {
    schema: 'create',
    required: true,
  });
}

export function readDescriptor(def: ResourceDef): OperationDescriptor {
  return describe(
    { kind: 'read', resource: def },
    [ID, fieldsOf(def.name), METHOD, IF_NONE_MATCH],
    [{ status: 200, document: 'selected-item', headers: ['ETag'] }, NOT_MODIFIED],
  );
}

export function updateDescriptor(def: ResourceDef): OperationDescriptor {
  return describe({ kind: 'update', resource: def }, [ID, IF_MATCH], [{ status: 200, document: 'item', headers: [] }], {
    schema: 'update',
    required: false,
  });
}

export function removeDescriptor(def: ResourceDef): OperationDescriptor {
  return describe({ kind: 'remove', resource: def }, [ID, IF_MATCH], [{ status: 200, document: 'none', headers: [] }]);
}
