// The words of a resource's operations (collection, count, item; nested ones in nested.ts), and the request body they
// share.
import type { ResourceDef } from '../resources/definition.js';
import { searchableFields } from '../resources/definition.js';
import type { ResourceOperationDescriptor, ResourceOperationKind } from '../routes/descriptor.js';
import type { Prose } from './describe-operation.js';
import { withArticle, capitalize, ref, type JsonObject } from './json-schema.js';
import { nestedProse } from './nested.js';

type Words = (def: ResourceDef, version: number) => Prose;

export function searchNote(def: ResourceDef): string {
  const searched = searchableFields(def);
  return searched.length === 0 ? '' : ` q searches ${searched.join(', ')}.`;
}

/**
 * The write-only id sets (foodIds): an array in JSON, the ids comma-separated in a form (OpenAPI's form style, not
 * exploded).
 */
function idSets(def: ResourceDef): string[] {
  return Object.entries(def.fields)
    .filter(([, field]) => field.kind === 'refs')
    .map(([name]) => name);
}

export function requestBody(def: ResourceDef, schemaName: string, required: boolean, lead: string): JsonObject {
  const schema = ref('schemas', schemaName);
  const sets = idSets(def);
  const setNote =
    sets.length === 0
      ? ''
      : ` ${sets.join(' and ')} ${sets.length === 1 ? 'is a write-only set' : 'are write-only sets'} of ids: an ` +
        `array of strings in JSON, the ids separated by commas in a form; ` +
        'each id must name an item you can see, and a PUT replaces the whole set (an empty list or null clears it).';
  const encoding = Object.fromEntries(sets.map((name) => [name, { style: 'form', explode: false }]));
  return {
    required,
    description:
      `${lead} Send JSON or a form (application/x-www-form-urlencoded), at most 16 KiB. Strings are trimmed and ` +
      `hold at most 100 characters; ` +
      `an empty value (or null in JSON) clears an optional field. id, createdAt and updatedAt are ignored, and ` +
      `so are the control parameters ` +
      `method, suppress_response_codes and access_token; any other field ${def.name} do not have is a 400 naming ` +
      `it.${setNote}`,
    content: {
      'application/json': { schema },
      'application/x-www-form-urlencoded': { schema, ...(sets.length > 0 ? { encoding } : {}) },
    },
  };
}

/**
 * What a creation answers: 200 in v1; 201 with the new item's URL in Location in v2. A retry with the same
 * Idempotency-Key replays it.
 */
export function createdAnswer(def: ResourceDef, version: number): string {
  return version < 2 ? `The new ${def.singular}.` : `The new ${def.singular}; Location is its URL.`;
}

export function createdNote(version: number): string {
  return version < 2 ? ' (200 in v1)' : ' (201 Created, with its URL in Location)';
}

const list: Words = (def) => ({
  operationId: `list${capitalize(def.name)}`,
  summary: `List ${def.name}`,
  description:
    `A page of the ${def.name} you can see, in creation order unless sort or q orders them. limit and offset ` +
    `page through them, ` +
    `and the Link header points to the neighbouring pages. Filters narrow the list.${searchNote(def)}`,
  tags: [def.name],
  answers: { 200: `A page of ${def.name}; an empty list when none match.` },
});

const count: Words = (def) => ({
  operationId: `count${capitalize(def.name)}`,
  summary: `Count ${def.name}`,
  description:
    `How many ${def.name} match the filters and q, the same ones the list would return, without listing ` +
    `them.${searchNote(def)}`,
  tags: [def.name],
  answers: { 200: `The number of matching ${def.name}.` },
});

const create: Words = (def, version) => {
  const required = Object.entries(def.fields)
    .filter(([, field]) => field.required)
    .map(([name]) => name);
  return {
    operationId: `create${capitalize(def.singular)}`,
    summary: `Create ${withArticle(def.singular)}`,
    description:
      `Creates ${withArticle(def.singular)} and answers with it${createdNote(version)}.` +
      (required.length ? ` Required: ${required.join(', ')}.` : ''),
    tags: [def.name],
    answers: { created: createdAnswer(def, version) },
  };
};

const read: Words = (def) => ({
  operationId: `get${capitalize(def.singular)}`,
  summary: `Get ${withArticle(def.singular)}`,
  description:
    `One ${def.singular} by its id. An id that does not exist, or that belongs to another account, is ` + `a 404.`,
  tags: [def.name],
  answers: { 200: `The ${def.singular}.` },
});

const update: Words = (def) => ({
  operationId: `update${capitalize(def.singular)}`,
  summary: `Change ${withArticle(def.singular)}`,
  description:
    `Changes only the fields in the body; the others keep their values. Answers with the whole ${def.singular} as ` +
    `it is now.`,
  tags: [def.name],
  answers: { 200: `The changed ${def.singular}.` },
});

const remove: Words = (def) => ({
  operationId: `delete${capitalize(def.singular)}`,
  summary: `Delete ${withArticle(def.singular)}`,
  description: `Deletes the ${def.singular}. The answer is 200 with an empty body.`,
  tags: [def.name],
  answers: { 200: 'Deleted; the body is empty.' },
});

/** The words of each kind of a resource's own operations, typed by kind: a new kind cannot go undescribed. */
const OWN: Readonly<Record<Exclude<ResourceOperationKind, 'nestedList' | 'nestedSearch' | 'nestedCreate'>, Words>> = {
  list,
  count,
  create,
  read,
  update,
  remove,
};

export function resourceProse(descriptor: ResourceOperationDescriptor, version: number): Prose {
  const { kind, resource, nesting } = descriptor;
  if (kind === 'nestedList' || kind === 'nestedSearch' || kind === 'nestedCreate') {
    if (!nesting) throw new Error(`a ${kind} operation of ${resource.name} has no parent`);
    return nestedProse(kind, resource, nesting, version);
  }
  return OWN[kind](resource, version);
}
