// The parameters of the document: shared query and header parameters, and each resource's fields, sort and filters.
import type { CONTROL_PARAMS } from '../query/collection.js';
import { PATH_CONTROL_PARAMS, DEFAULT_LIMIT, MAX_LIMIT, MAX_Q_LENGTH } from '../query/collection.js';
import { sortableFields, representedFields, type ResourceDef } from '../resources/definition.js';
import { ref, type JsonObject } from './json-schema.js';

/** parseOffset reads any whole number, past this one as this one. */

export function inQuery(name: string, description: string, schema: JsonObject, extra: JsonObject = {}): JsonObject {
  return { name, in: 'query', description, schema, ...extra };
}

function inHeader(name: string, description: string, example: string): JsonObject {
  return { name, in: 'header', description, schema: { type: 'string', minLength: 1 }, example };
}

const Q_TEXT =
  'Search text. Every word must match a word of a searched field, exactly or as its start, ignoring case and ' +
  'accents. ' +
  'Without sort, the best matches come first: the whole field, its start, its words, then word prefixes, the name ' +
  'before the other fields, then creation order; such a page ends at most 1000 results deep (offset + limit) ' +
  'unless it starts past the last result.';
const Q_SCHEMA = { type: 'string', minLength: 1, maxLength: MAX_Q_LENGTH };

/**
 * Typed by CONTROL_PARAMS, so a new control parameter cannot go undocumented; access_token is the accessToken security
 * scheme (security.ts), the way OpenAPI names a credential in the query.
 */
const CONTROL: Readonly<Record<Exclude<(typeof CONTROL_PARAMS)[number], 'access_token'>, JsonObject>> = {
  method: inQuery(
    'method',
    'On a GET or POST, carry out this method instead (any case), for clients that can only send GET and POST. ' +
      'On a GET the fields come from the query string: GET /dogs/{id}?method=put&name=Rex. The ' +
      'X-HTTP-Method-Override header does the same on a POST. ' +
      'A method the path does not offer is a 400 whose Allow header lists the ones it does.',
    // Any case (SPEC §3), which an enum of JSON Schema cannot say.
    { type: 'string', pattern: anyCase('post', 'put', 'delete'), examples: ['post', 'put', 'delete'] },
  ),
  suppress_response_codes: inQuery(
    'suppress_response_codes',
    'true (any case): the HTTP status is always 200, for clients that cannot read other statuses; ' +
      'an error body then carries the status it would have had in response_code, and a 304 becomes a 200 with ' +
      'the full body.',
    // On the wire the text true or false in any case (SPEC §3): a boolean schema would refuse TRUE.
    { type: 'string', pattern: anyCase('true', 'false'), default: 'false', examples: ['true'] },
  ),
};

/** A pattern that matches exactly one of `words` in any case: `[Pp][Uu][Tt]`. */
function anyCase(...words: readonly string[]): string {
  const either = (word: string): string =>
    [...word].map((char) => `[${char.toUpperCase()}${char.toLowerCase()}]`).join('');
  return `^(?:${words.map(either).join('|')})$`;
}

export function sharedParameters(): Record<string, JsonObject> {
  return {
    id: {
      name: 'id',
      in: 'path',
      required: true,
      description: "The item's id, as the service assigned it.",
      schema: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', maxLength: 100 },
    },
    limit: inQuery('limit', `How many items the page holds, from 1 to ${MAX_LIMIT}.`, {
      type: 'integer',
      minimum: 1,
      maximum: MAX_LIMIT,
      default: DEFAULT_LIMIT,
    }),
    offset: inQuery('offset', 'How many items to skip before the page starts.', {
      type: 'integer',
      minimum: 0,
      default: 0,
    }),
    q: inQuery('q', Q_TEXT, Q_SCHEMA),
    'q.required': inQuery('q', `${Q_TEXT} Required here.`, Q_SCHEMA, { required: true, example: 'rex' }),
    ...CONTROL,
    'X-HTTP-Method-Override': inHeader(
      'X-HTTP-Method-Override',
      'On a POST: carry out this method instead (PUT or DELETE, any case), for clients that can only send GET and ' +
        'POST. A method the path does not offer is a 400 whose Allow header lists the ones it does.',
      'PUT',
    ),
    'If-None-Match': inHeader(
      'If-None-Match',
      'The ETag of an earlier answer: while it still matches, the answer is 304 with no body.',
      '"a1b2c3"',
    ),
    'If-Match': inHeader(
      'If-Match',
      "Carry out the change only if this is the item's current ETag (strong comparison); otherwise the answer is " +
        'a 400 and nothing changes.',
      '"a1b2c3"',
    ),
    'Idempotency-Key': inHeader(
      'Idempotency-Key',
      'Makes a POST safe to retry: the same key with the same body within 24 hours replays the first answer and ' +
        'creates nothing; ' +
        'the same key with another body is a 400.',
      '5f0c6e2a-8d6b-4d3c-9a71-2f4c1e0b7d55',
    ),
    Prefer: inHeader(
      'Prefer',
      'count=exact (RFC 7240) adds the total: an X-Total-Count header and a last link in Link.',
      'count=exact',
    ),
  };
}

/**
 * The control parameters every path accepts, except `method`, which only GET and POST read, and access_token, a
 * security scheme.
 */
export const PATH_CONTROL_REFS: readonly JsonObject[] = PATH_CONTROL_PARAMS.filter(
  (name) => name !== 'access_token',
).map((name) => ref('parameters', name));

/** `fields`, `sort` and the filters of one resource, named `dogs.fields`, `dogs.color`, … */
export function resourceParameters(def: ResourceDef): Record<string, JsonObject> {
  const fields = representedFields(def);
  const associations = Object.keys(def.associations);
  const nested =
    associations.length === 0
      ? ''
      : ` Associations (${associations.join(', ')}) appear only when named, with their own fields in parentheses: ` +
        `${associations[0]}(name). At most four levels of parentheses.`;
  const parameters: Record<string, JsonObject> = {
    [`${def.name}.fields`]: inQuery(
      'fields',
      `The fields to return, comma-separated, from: ${fields.join(', ')}.${nested} Without it, every field but ` +
        `the associations.`,
      { type: 'string', minLength: 1 },
      { example: fields.slice(0, 2).join(',') },
    ),
    [`${def.name}.sort`]: inQuery(
      'sort',
      'The field to order by; a leading - orders descending. Text compares ignoring case, and ties keep creation ' +
        'order.',
      { type: 'string', enum: sortableFields(def).flatMap((field) => [field, `-${field}`]) },
    ),
  };
  for (const [filter, field] of Object.entries(def.filters))
    parameters[`${def.name}.${filter}`] = filterParameter(def, filter, field);
  return parameters;
}

/**
 * A comma-separated list means any of them (SPEC §3), described as the string it is on the wire: an array would make
 * generated clients send `color=a&color=b`, which the service refuses (2009).
 */
export function filterParameter(def: ResourceDef, filter: string, field: string): JsonObject {
  const values = def.fields[field]?.values;
  const choice = values ? ` The values: ${values.join(', ')}.` : '';
  const example = values ? ` (${values.slice(0, 2).join(',')})` : '';
  return inQuery(
    filter,
    `Only ${def.name} whose ${field} equals one of these values, comma-separated${example}, ignoring case. ` +
      `Filters combine with AND.${choice}`,
    COMMA_LIST,
    values ? { example: values.slice(0, 2).join(',') } : {},
  );
}

/** A comma-separated list in one parameter. */
export const COMMA_LIST: JsonObject = { type: 'string', minLength: 1 };
