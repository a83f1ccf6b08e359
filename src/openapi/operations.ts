// Describes the operations of a resource's own paths (collection, count, item) in plain language: id, parameters, body, answers.
import type { Verb } from '../http/context.js';
import { searchableFields, type ResourceDef } from '../resources/definition.js';
import { withArticle, capitalize, ref, schemaNames, type JsonObject } from './json-schema.js';
import { filterRefs, resourceParameterRef } from './parameters.js';
import { countResponse, emptyResponse, itemResponse, listResponse } from './responses.js';

type Describe = (def: ResourceDef, version: number) => JsonObject;

export const param = (name: string): JsonObject => ref('parameters', name);

export function searchNote(def: ResourceDef): string {
  const searched = searchableFields(def);
  return searched.length === 0 ? '' : ` q searches ${searched.join(', ')}.`;
}

/** The parameters of a page of `def`; `q.required` on a search path, `method` only where the path offers more than GET. */
export function listParameters(def: ResourceDef, options: { q: 'q' | 'q.required'; method: boolean }): JsonObject[] {
  return [resourceParameterRef(def, 'fields'), param('limit'), param('offset'), resourceParameterRef(def, 'sort'), param(options.q),
    ...filterRefs(def), ...(options.method ? [param('method')] : []), param('If-None-Match'), param('Prefer')];
}

/** The write-only id sets (foodIds): an array in JSON, the ids comma-separated in a form (OpenAPI's form style, not exploded). */
function idSets(def: ResourceDef): string[] {
  return Object.entries(def.fields).filter(([, field]) => field.kind === 'refs').map(([name]) => name);
}

export function requestBody(def: ResourceDef, schemaName: string, required: boolean, lead: string): JsonObject {
  const schema = ref('schemas', schemaName);
  const sets = idSets(def);
  const setNote = sets.length === 0 ? ''
    : ` ${sets.join(' and ')} ${sets.length === 1 ? 'is a write-only set' : 'are write-only sets'} of ids: an array of strings in JSON, the ids separated by commas in a form; `
      + 'each id must name an item you can see, and a PUT replaces the whole set (an empty list or null clears it).';
  const encoding = Object.fromEntries(sets.map((name) => [name, { style: 'form', explode: false }]));
  return {
    required,
    description: `${lead} Send JSON or a form (application/x-www-form-urlencoded), at most 16 KiB. Strings are trimmed and hold at most 100 characters; `
      + `an empty value (or null in JSON) clears an optional field. id, createdAt and updatedAt are ignored, and so are the control parameters `
      + `method, suppress_response_codes and access_token; any other field ${def.name} do not have is a 400 naming it.${setNote}`,
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema, ...(sets.length > 0 ? { encoding } : {}) },
    },
  };
}

/** v1 answers a creation 200; v2 201 with the new item's URL in Location. A retry with the same Idempotency-Key replays it. */
export function createdResponses(def: ResourceDef, version: number): JsonObject {
  return version < 2
    ? { 200: itemResponse(def, `The new ${def.singular}.`, 'Idempotent-Replayed') }
    : { 201: itemResponse(def, `The new ${def.singular}; Location is its URL.`, 'Location', 'Idempotent-Replayed') };
}

export function createdNote(version: number): string {
  return version < 2 ? ' (200 in v1)' : ' (201 Created, with its URL in Location)';
}

const list: Describe = (def) => ({
  operationId: `list${capitalize(def.name)}`,
  summary: `List ${def.name}`,
  description: `A page of the ${def.name} you can see, in creation order unless sort or q orders them. limit and offset page through them, `
    + `and the Link header points to the neighbouring pages. Filters narrow the list.${searchNote(def)}`,
  parameters: listParameters(def, { q: 'q', method: true }),
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
  return {
    operationId: `create${capitalize(def.singular)}`,
    summary: `Create ${withArticle(def.singular)}`,
    description: `Creates ${withArticle(def.singular)} and answers with it${createdNote(version)}.` + (required.length ? ` Required: ${required.join(', ')}.` : ''),
    parameters: [param('method'), param('Idempotency-Key')],
    requestBody: requestBody(def, schemaNames(def).create, true, `The new ${def.singular}.`),
    responses: createdResponses(def, version),
  };
};

const read: Describe = (def) => ({
  operationId: `get${capitalize(def.singular)}`,
  summary: `Get ${withArticle(def.singular)}`,
  description: `One ${def.singular} by its id. An id that does not exist, or that belongs to another account, is a 404.`,
  parameters: [resourceParameterRef(def, 'fields'), param('method'), param('If-None-Match')],
  responses: { 200: itemResponse(def, `The ${def.singular}.`, 'ETag'), 304: ref('responses', 'NotModified') },
});

const update: Describe = (def) => ({
  operationId: `update${capitalize(def.singular)}`,
  summary: `Change ${withArticle(def.singular)}`,
  description: `Changes only the fields in the body; the others keep their values. Answers with the whole ${def.singular} as it is now.`,
  parameters: [param('If-Match')],
  requestBody: requestBody(def, schemaNames(def).update, false, `The fields to change.`),
  responses: { 200: itemResponse(def, `The changed ${def.singular}.`) },
});

const remove: Describe = (def) => ({
  operationId: `delete${capitalize(def.singular)}`,
  summary: `Delete ${withArticle(def.singular)}`,
  description: `Deletes the ${def.singular}. The answer is 200 with an empty body.`,
  parameters: [param('If-Match')],
  responses: { 200: emptyResponse(`Deleted; the body is empty.`) },
});

/** The operations by method and path after the collection (`''`, `/count`, `/:id`). */
const KINDS: Readonly<Record<string, Describe>> = {
  'GET ': list,
  'POST ': create,
  'GET /count': count,
  'GET /:id': read,
  'PUT /:id': update,
  'DELETE /:id': remove,
};

/** The operation (before security and the shared answers), or undefined for one this module has no description of. */
export function describeResourceOperation(def: ResourceDef, rest: string, verb: Verb, version: number): JsonObject | undefined {
  const describe = KINDS[`${verb} ${rest}`];
  return describe && { ...describe(def, version), tags: [def.name] };
}
