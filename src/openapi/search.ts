// Describes GET /search: one search over every resource, answered in the `results` envelope of single-item envelopes.
import { searchableFields, type ResourceDef } from '../resources/definition.js';
import type { Prose } from './describe-operation.js';
import { ref, schemaNames, type JsonObject } from './json-schema.js';
import { COMMA_LIST, inQuery } from './parameters.js';

export function searchProse(defs: readonly ResourceDef[]): Prose {
  const searched = defs.map((def) => `${def.name} by ${searchableFields(def).join(', ')}`).join('; ');
  return {
    operationId: 'search',
    summary: 'Search everything',
    description:
      `One search over the ${defs.map((def) => def.name).join(', ')} you can see (${searched}), best match first; ` +
      'equal matches keep creation order, so pages never overlap. Each result is one item in its own envelope, ' +
      'with every field of the ' +
      'default representation: fields and sort are not accepted here. types narrows the search; limit and offset ' +
      'page through it, ' +
      'and the Link header points to the neighbouring pages.',
    tags: ['search'],
    answers: { 200: 'A page of results; an empty list when nothing matches.' },
  };
}

export function searchParameters(defs: readonly ResourceDef[]): Record<string, JsonObject> {
  const names = defs.map((def) => def.name);
  return {
    types: inQuery(
      'types',
      `The resources to search, comma-separated, in any case (repeats count once); without it, all of them. ` +
        `Another name is a 400 listing these.`,
      COMMA_LIST,
      { example: names.slice(0, 2).join(',') },
    ),
  };
}

/**
 * JSON: a list of single-key envelopes, one per resource. XML: a run of item elements of any resource, in rank order.
 */
export function searchSchemas(defs: readonly ResourceDef[]): Record<string, JsonObject> {
  return {
    SearchResults: {
      type: 'object',
      description:
        'A page of search results in JSON: each is one item in the envelope of its resource ({"dog": {…}}, ' +
        '{"owner": {…}}), best match first.',
      required: ['results'],
      additionalProperties: false,
      properties: {
        results: { type: 'array', items: { oneOf: defs.map((def) => ref('schemas', schemaNames(def).envelope)) } },
      },
    },
    SearchResultsXml: {
      type: 'object',
      description:
        'A page of search results in XML: `<results>` holds one element per result, named after its resource ' +
        '(`<dog>`, `<owner>`, …), best match first, so elements of different resources interleave.',
      xml: { name: 'results' },
      properties: Object.fromEntries(
        defs.map((def) => [def.singular, { type: 'array', items: ref('schemas', schemaNames(def).item) }]),
      ),
    },
  };
}
