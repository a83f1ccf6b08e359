// Describes GET /adoptions, the one open operation: the public fields of adoptable dogs from every account.
import { itemSchema } from '../resources/resource-schemas.js';
import { adoptableDogs, PUBLIC_FIELDS as ROUTE_PUBLIC_FIELDS } from '../routes/adoptions-routes.js';
import type { Prose } from './describe-operation.js';
import { ref, toJsonSchema, type JsonObject } from './json-schema.js';
import { COMMA_LIST, filterParameter, inQuery } from './parameters.js';
import { envelope, listXml } from './component-schemas.js';

/** The public fields, exactly those the route serves. */
const PUBLIC_FIELDS: string[] = [...ROUTE_PUBLIC_FIELDS];
const PREFIX = 'adoptions';
const { plural, singular } = { plural: adoptableDogs.name, singular: adoptableDogs.singular };

export function adoptionsProse(): Prose {
  return {
    operationId: 'listAdoptableDogs',
    summary: 'List dogs up for adoption',
    description:
      `The dogs of every account whose state is adoptable, with their public fields only ` +
      `(${PUBLIC_FIELDS.join(', ')}), in the ${plural} list envelope. ` +
      'This is the one operation open to anyone: it needs no sign-up and no token, and credentials sent with it ' +
      'are ignored. ' +
      'Any web page may call it (CORS: Access-Control-Allow-Origin: *). Its rate limit counts per IP address. ' +
      'Filters narrow the list; limit and offset page through it, and the Link header points to the neighbouring ' +
      'pages.',
    tags: [PREFIX],
    answers: { 200: `A page of adoptable ${plural}; an empty list when none match.` },
  };
}

export function adoptionParameters(): Record<string, JsonObject> {
  const parameters: Record<string, JsonObject> = {
    [`${PREFIX}.fields`]: inQuery(
      'fields',
      `The public fields to return, comma-separated, from: ${PUBLIC_FIELDS.join(', ')}. Without it, all of them. ` +
        `Anything else is a 400.`,
      COMMA_LIST,
      { example: PUBLIC_FIELDS.slice(0, 2).join(',') },
    ),
    [`${PREFIX}.sort`]: inQuery(
      'sort',
      'The public field to order by; a leading - orders descending. Text compares ignoring case, and ties keep ' +
        'creation order.',
      { type: 'string', enum: PUBLIC_FIELDS.flatMap((field) => [field, `-${field}`]) },
    ),
  };
  for (const [filter, field] of Object.entries(adoptableDogs.filters))
    parameters[`${PREFIX}.${filter}`] = filterParameter(adoptableDogs, filter, field);
  return parameters;
}

/** The public view: only the public fields, nothing else ever (additionalProperties: false says so). */
export function adoptionSchemas(): Record<string, JsonObject> {
  const base = toJsonSchema(itemSchema(adoptableDogs));
  const properties = base.properties as Record<string, JsonObject>;
  const item: JsonObject = {
    type: 'object',
    title: `adoptable ${singular}`,
    description: `A ${singular} up for adoption, as anyone may see it. Every field may be left out by fields.`,
    xml: { name: singular },
    properties: Object.fromEntries(PUBLIC_FIELDS.map((name) => [name, properties[name]])),
    additionalProperties: false,
  };
  return {
    AdoptableDog: item,
    AdoptableDogEnvelope: envelope(
      singular,
      ref('schemas', 'AdoptableDog'),
      `One adoptable ${singular} in its JSON envelope.`,
    ),
    AdoptableDogsList: envelope(
      plural,
      { type: 'array', items: ref('schemas', 'AdoptableDogEnvelope') },
      `A page of adoptable ${plural} in the JSON list envelope.`,
    ),
    AdoptableDogsListXml: listXml(plural, singular, ref('schemas', 'AdoptableDog')),
  };
}
