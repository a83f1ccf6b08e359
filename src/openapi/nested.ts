// Describes the nested paths of an association (`/owners/{id}/dogs`, its POST and `/search`): the target's collection rules under one parent.
import type { Verb } from '../http/context.js';
import type { AssociationDef, ResourceDef } from '../resources/definition.js';
import { withArticle, capitalize, ref, schemaNames, type JsonObject } from './json-schema.js';
import { createdNote, createdResponses, listParameters, param, requestBody, searchNote } from './operations.js';
import { listResponse } from './responses.js';
import type { ResourceLookup } from './schemas.js';

type ManyAssociation = Extract<AssociationDef, { kind: 'many' }>;

interface Nested {
  readonly parent: ResourceDef;
  /** The association's name, also the last path segment: `dogs`. */
  readonly name: string;
  readonly association: ManyAssociation;
  readonly target: ResourceDef;
  /** Whether the path offers more than GET, so that `method` means something on it. */
  readonly changes: boolean;
}

/** The rest of a nested endpoint's path after the parent's collection: `/:id/<association>`, maybe `/search`. */
const NESTED_REST = /^\/:id\/([A-Za-z]\w*)(\/search)?$/;

/** The operation (before security and the shared answers), or undefined for a path that is not a nested one of `parent`. */
export function describeNestedOperation(parent: ResourceDef, rest: string, verb: Verb, version: number, lookup: ResourceLookup, verbs: readonly Verb[]): JsonObject | undefined {
  const match = NESTED_REST.exec(rest);
  const association = match ? parent.associations[match[1]!] : undefined;
  const target = association && lookup(association.target);
  if (!match || !association || association.kind !== 'many' || !target) return undefined;
  const nested: Nested = { parent, name: match[1]!, association, target, changes: verbs.some((other) => other !== 'GET') };
  let operation: JsonObject | undefined;
  if (verb === 'GET') operation = match[2] ? search(nested) : list(nested);
  else if (verb === 'POST' && !match[2] && 'reverseField' in association) operation = create(nested, association.reverseField, version);
  return operation && { ...operation, tags: [parent.name] };
}

function parentMissing({ parent }: Nested): string {
  return ` ${capitalize(withArticle(parent.singular))} that does not exist, or belongs to another account, is a 404.`;
}

/** How the parent reaches the items, in words, from the association and the write-only set that maintains a link. */
function relation({ parent, association, target }: Nested): string {
  if ('reverseField' in association) return `the ${target.name} whose ${association.reverseField} is this ${parent.singular}`;
  const setOf = (def: ResourceDef): string | undefined => Object.entries(def.fields)
    .find(([, field]) => field.kind === 'refs' && field.link?.table === association.link.table)?.[0];
  const own = setOf(parent);
  if (own) return `the ${target.name} in this ${parent.singular}'s ${own}`;
  const theirs = setOf(target);
  return theirs ? `the ${target.name} whose ${theirs} include this ${parent.singular}` : `the ${target.name} linked to this ${parent.singular}`;
}

function list(nested: Nested): JsonObject {
  const { parent, name, target } = nested;
  return {
    operationId: `list${capitalize(parent.singular)}${capitalize(name)}`,
    summary: `List the ${name} of ${withArticle(parent.singular)}`,
    description: `A page of ${relation(nested)}, with the rules of GET /${target.name}: fields, limit and offset, filters, sort and q, `
      + `and the Link header to the neighbouring pages.${searchNote(target)}${parentMissing(nested)}`,
    parameters: listParameters(target, { q: 'q', method: nested.changes }),
    responses: { 200: listResponse(target, `A page of the ${parent.singular}'s ${name}; an empty list when none match.`), 304: ref('responses', 'NotModified') },
  };
}

function search(nested: Nested): JsonObject {
  const { parent, name, target } = nested;
  return {
    operationId: `search${capitalize(parent.singular)}${capitalize(name)}`,
    summary: `Search the ${name} of ${withArticle(parent.singular)}`,
    description: `Searches ${relation(nested)}: the same as GET /${name} under the ${parent.singular}, but q is required. `
      + `Without sort, the best matches come first.${searchNote(target)}${parentMissing(nested)}`,
    parameters: listParameters(target, { q: 'q.required', method: false }),
    responses: { 200: listResponse(target, `A page of the matching ${name}, in the ${target.name} list envelope.`), 304: ref('responses', 'NotModified') },
  };
}

function create(nested: Nested, field: string, version: number): JsonObject {
  const { parent, target } = nested;
  return {
    operationId: `create${capitalize(parent.singular)}${capitalize(target.singular)}`,
    summary: `Create ${withArticle(target.singular)} of ${withArticle(parent.singular)}`,
    description: `Creates ${withArticle(target.singular)} whose ${field} is this ${parent.singular}, with the body of POST /${target.name}, and answers with it${createdNote(version)}. `
      + `${field} may be left out; a body whose ${field} names another ${parent.singular} is a 400.${parentMissing(nested)}`,
    parameters: [param('method'), param('Idempotency-Key')],
    requestBody: requestBody(target, schemaNames(target).create, true, `The new ${target.singular}.`),
    responses: createdResponses(target, version),
  };
}
