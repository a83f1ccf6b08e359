// The words of a nested path's operations (`/owners/{id}/dogs`, its POST and `/search`): the target's collection rules
// under one parent.
import type { AssociationDef, ResourceDef } from '../resources/definition.js';
import type { Nesting } from '../routes/descriptor.js';
import type { Prose } from './describe-operation.js';
import { withArticle, capitalize } from './json-schema.js';
import { createdAnswer, createdNote, searchNote } from './resource-operation-words.js';

interface Nested {
  readonly parent: ResourceDef;
  /** The association's name, also the last path segment: `dogs`. */
  readonly name: string;
  readonly association: Extract<AssociationDef, { kind: 'many' }>;
  readonly target: ResourceDef;
}

/** The words of a nested operation of `target` under `nesting.parent`. */
export function nestedProse(
  kind: 'nestedList' | 'nestedSearch' | 'nestedCreate',
  target: ResourceDef,
  nesting: Nesting,
  version: number,
): Prose {
  const { parent, name, association } = nesting;
  if (association.kind !== 'many') throw new Error(`${parent.name}/${name} is not a nested path: it reaches one item`);
  const nested: Nested = { parent, name, association, target };
  if (kind === 'nestedList') return list(nested);
  if (kind === 'nestedSearch') return search(nested);
  if (!('reverseField' in association)) throw new Error(`${parent.name}/${name} creates through no field`);
  return create(nested, association.reverseField, version);
}

function parentMissing({ parent }: Nested): string {
  return ` ${capitalize(withArticle(parent.singular))} that does not exist, or belongs to another account, is a 404.`;
}

/** How the parent reaches the items, in words, from the association and the write-only set that maintains a link. */
function relation({ parent, association, target }: Nested): string {
  if ('reverseField' in association)
    return `the ${target.name} whose ${association.reverseField} is this ${parent.singular}`;
  const setOf = (def: ResourceDef): string | undefined =>
    Object.entries(def.fields).find(
      ([, field]) => field.kind === 'refs' && field.link?.table === association.link.table,
    )?.[0];
  const own = setOf(parent);
  if (own) return `the ${target.name} in this ${parent.singular}'s ${own}`;
  const theirs = setOf(target);
  return theirs
    ? `the ${target.name} whose ${theirs} include this ${parent.singular}`
    : `the ${target.name} linked to this ${parent.singular}`;
}

function list(nested: Nested): Prose {
  const { parent, name, target } = nested;
  return {
    operationId: `list${capitalize(parent.singular)}${capitalize(name)}`,
    summary: `List the ${name} of ${withArticle(parent.singular)}`,
    description:
      `A page of ${relation(nested)}, with the rules of GET /${target.name}: fields, limit and offset, filters, ` +
      `sort and q, ` +
      `and the Link header to the neighbouring pages.${searchNote(target)}${parentMissing(nested)}`,
    tags: [parent.name],
    answers: { 200: `A page of the ${parent.singular}'s ${name}; an empty list when none match.` },
  };
}

function search(nested: Nested): Prose {
  const { parent, name, target } = nested;
  return {
    operationId: `search${capitalize(parent.singular)}${capitalize(name)}`,
    summary: `Search the ${name} of ${withArticle(parent.singular)}`,
    description:
      `Searches ${relation(nested)}: the same as GET /${name} under the ${parent.singular}, but q is required. ` +
      `Without sort, the best matches come first.${searchNote(target)}${parentMissing(nested)}`,
    tags: [parent.name],
    answers: { 200: `A page of the matching ${name}, in the ${target.name} list envelope.` },
  };
}

function create(nested: Nested, field: string, version: number): Prose {
  const { parent, target } = nested;
  return {
    operationId: `create${capitalize(parent.singular)}${capitalize(target.singular)}`,
    summary: `Create ${withArticle(target.singular)} of ${withArticle(parent.singular)}`,
    description:
      `Creates ${withArticle(target.singular)} whose ${field} is this ${parent.singular}, with the body of POST ` +
      `/${target.name}, and answers with it${createdNote(version)}. ` +
      `${field} may be left out; a body whose ${field} names another ${parent.singular} is a ` +
      `400.${parentMissing(nested)}`,
    tags: [parent.name],
    answers: { created: createdAnswer(target, version) },
  };
}
