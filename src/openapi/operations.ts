// Describes each operation of a resource in plain language: its id, parameters, request body and answers.
import type { Verb } from '../http/context.js';
import { searchableFields, type ResourceDef } from '../resources/definition.js';
import { capitalize, ref, schemaNames, type JsonObject } from './json-schema.js';
import { filterRefs, resourceParameterRef } from './parameters.js';
import { countResponse, emptyResponse, itemResponse, listResponse } from './responses.js';

type Describe = (def: ResourceDef, version: number) => JsonObject;

interface OperationKind {
  readonly describe: Describe;
  readonly scope: 'read' | 'write';
  /** Whether the operation addresses one item, and so can answer 404. */
  readonly item: boolean;
}

const param = (name: string): JsonObject => ref('parameters', name);

function searchNote(def: ResourceDef): string {
  const searched = searchableFields(def);
  return searched.length === 0 ? '' : ` q searches ${searched.join(', ')}.`;
}

function requestBody(def: ResourceDef, schemaName: string, required: boolean, lead: string): JsonObject {
  const schema = ref('schemas', schemaName);
  return {
    required,
    description: `${lead} Send JSON or a form (application/x-www-form-urlencoded), at most 16 KiB. Strings are trimmed and hold at most 100 characters; `
      + `an empty value (or null in JSON) clears an optional field. id, createdAt and updatedAt are ignored, and so are the control parameters `
      + `method, suppress_response_codes and access_token; any other field ${def.name} do not have is a 400 naming it.`,
    content: { 'application/json': { schema }, 'application/x-www-form-urlencoded': { schema } },
  };
}

const list: Describe = (def) => ({
  operationId: `list${capitalize(def.name)}`,
  summary: `List ${def.name}`,
  description: `A page of the ${def.name} you can see, in creation order unless sort or q orders them. limit and offset page through them, `
    + `and the Link header points to the neighbouring pages. Filters narrow the list.${searchNote(def)}`,
  parameters: [resourceParameterRef(def, 'fields'), param('limit'), param('offset'), resourceParameterRef(def, 'sort'), param('q'),
    ...filterRefs(def), param('method'), param('If-None-Match'), param('Prefer')],
  responses: { 200: listResponse(def, `A page of ${def.name}; an empty list when none match.`), 304: ref('responses', 'NotModified') },
});

const count: Describe = (def) => ({
  operationId: `count${capitalize(def.name)}`,
  summary: `Count ${def.name}`,
  description: `How many ${def.name} match the filters and q, the same ones the list would return, without listing them.${searchNote(def)}`,
  parameters: [param('q'), ...filterRefs(def), param('If-None-Match')],
  responses: { 200: countResponse(`The number of matching ${def.name}.`), 304: ref('responses', 'NotModified') },
});

const create: Describe = (def, version) => {
  const required = Object.entries(def.fields).filter(([, field]) => field.required).map(([name]) => name);
  const answer = version < 2
    ? { 200: itemResponse(def, `The new ${def.singular}.`) }
    : { 201: itemResponse(def, `The new ${def.singular}; Location is its URL.`, 'Location') };
  return {
    operationId: `create${capitalize(def.singular)}`,
    summary: `Create a ${def.singular}`,
    description: `Creates a ${def.singular} and answers with it${version < 2 ? ' (200 in v1)' : ' (201 Created, with its URL in Location)'}.`
      + (required.length ? ` Required: ${required.join(', ')}.` : ''),
    parameters: [param('method'), param('Idempotency-Key')],
    requestBody: requestBody(def, schemaNames(def).create, true, `The new ${def.singular}.`),
    responses: answer,
  };
};

const read: Describe = (def) => ({
  operationId: `get${capitalize(def.singular)}`,
  summary: `Get a ${def.singular}`,
  description: `One ${def.singular} by its id. An id that does not exist, or that belongs to another account, is a 404.`,
  parameters: [resourceParameterRef(def, 'fields'), param('method'), param('If-None-Match')],
  responses: { 200: itemResponse(def, `The ${def.singular}.`, 'ETag'), 304: ref('responses', 'NotModified') },
});

const update: Describe = (def) => ({
  operationId: `update${capitalize(def.singular)}`,
  summary: `Change a ${def.singular}`,
  description: `Changes only the fields in the body; the others keep their values. Answers with the whole ${def.singular} as it is now.`,
  parameters: [param('If-Match')],
  requestBody: requestBody(def, schemaNames(def).update, false, `The fields to change.`),
  responses: { 200: itemResponse(def, `The changed ${def.singular}.`) },
});

const remove: Describe = (def) => ({
  operationId: `delete${capitalize(def.singular)}`,
  summary: `Delete a ${def.singular}`,
  description: `Deletes the ${def.singular}. The answer is 200 with an empty body.`,
  parameters: [param('If-Match')],
  responses: { 200: emptyResponse(`Deleted; the body is empty.`) },
});

/** The operations by method and path after the collection (`''`, `/count`, `/:id`). */
const KINDS: Readonly<Record<string, OperationKind>> = {
  'GET ': { describe: list, scope: 'read', item: false },
  'POST ': { describe: create, scope: 'write', item: false },
  'GET /count': { describe: count, scope: 'read', item: false },
  'GET /:id': { describe: read, scope: 'read', item: true },
  'PUT /:id': { describe: update, scope: 'write', item: true },
  'DELETE /:id': { describe: remove, scope: 'write', item: true },
};

/** The operation object, or undefined for an operation this module has no description of. */
export function describeOperation(def: ResourceDef, rest: string, verb: Verb, version: number, open: boolean): JsonObject | undefined {
  const kind = KINDS[`${verb} ${rest}`];
  if (!kind) return undefined;
  const operation = kind.describe(def, version);
  const responses: JsonObject = { ...(operation.responses as JsonObject), 400: ref('responses', 'BadRequest') };
  if (!open) Object.assign(responses, { 401: ref('responses', 'Unauthorized'), 403: ref('responses', 'Forbidden') });
  if (kind.item) responses[404] = ref('responses', 'NotFound');
  responses[500] = ref('responses', 'InternalError');
  return { ...operation, tags: [def.name], security: open ? [] : [{ oauth2: [kind.scope] }], responses };
}
