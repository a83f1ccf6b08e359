// The component schemas of the document: each resource's item, bodies and envelopes, and the shared error and count.
import type { AssociationDef, ResourceDef } from '../resources/definition.js';
import { suppressedErrorSchema } from './alternatives.js';
import { createSchema, itemSchema, updateSchema } from '../resources/resource-schemas.js';
import { capitalize, ref, schemaNames, toJsonSchema, withArticle, type JsonObject } from './json-schema.js';

export type ResourceLookup = (name: string) => ResourceDef | undefined;

/** Every schema one resource needs; the bodies are the very schemas that validate requests. */
export function resourceSchemas(def: ResourceDef, lookup: ResourceLookup): Record<string, JsonObject> {
  const names = schemaNames(def);
  const schemas: Record<string, JsonObject> = {
    [names.item]: wholeItem(def),
    [names.fields]: itemWithAssociations(def, lookup, 'json'),
    [names.create]: clearableSets(def, withDefaults(def, toJsonSchema(createSchema(def)))),
    [names.update]: clearableSets(def, toJsonSchema(updateSchema(def))),
    [names.envelope]: envelope(def.singular, ref('schemas', names.item), `One ${def.singular} in its JSON envelope.`),
    [names.fieldsEnvelope]: envelope(
      def.singular,
      ref('schemas', names.fields),
      `One ${def.singular} in its JSON envelope, with the fields that fields selects.`,
    ),
    [names.list]: envelope(
      def.name,
      { type: 'array', items: ref('schemas', names.fieldsEnvelope) },
      `A page of ${def.name} in the JSON list envelope.`,
    ),
    [names.listXml]: listXml(def.name, def.singular, ref('schemas', names.fieldsXml)),
  };
  if (names.fieldsXml !== names.fields) schemas[names.fieldsXml] = itemWithAssociations(def, lookup, 'xml');
  return schemas;
}

/**
 * The item as every answer without `fields` holds it: each represented field is there (null when empty, an empty
 * element in XML), no association is.
 */
function wholeItem(def: ResourceDef): JsonObject {
  const base = toJsonSchema(itemSchema(def));
  return {
    ...base,
    description: `${capitalize(withArticle(def.singular))} with every field.`,
    required: Object.keys(base.properties as JsonObject),
    additionalProperties: false,
    xml: { name: def.singular },
  };
}

/** A JSON envelope: an object with exactly one key. */
export function envelope(key: string, schema: JsonObject, description: string): JsonObject {
  return { type: 'object', description, required: [key], properties: { [key]: schema }, additionalProperties: false };
}

/** `<dogs><dog>…</dog>…</dogs>`: one element per item inside the list's element. */
export function listXml(plural: string, singular: string, item: JsonObject): JsonObject {
  return {
    type: 'object',
    description: `A page of ${plural} in XML: one \`<${singular}>\` element per item inside \`<${plural}>\`.`,
    xml: { name: plural },
    properties: { [singular]: { type: 'array', items: item } },
  };
}

/**
 * The body rules read null as the empty set before the schema checks a write-only set (foodIds), so a body may send
 * null.
 */
function clearableSets(def: ResourceDef, schema: JsonObject): JsonObject {
  const properties = { ...(schema.properties as Record<string, JsonObject>) };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.kind === 'refs' && properties[name]) properties[name] = { ...properties[name], type: ['array', 'null'] };
  }
  return { ...schema, properties };
}

/**
 * The create schema states, in words, the value a field gets when the body leaves it out. Not as `default`:
 * openapi-typescript types a field with a default as required, and a body may well leave it out.
 */
function withDefaults(def: ResourceDef, schema: JsonObject): JsonObject {
  const properties = { ...(schema.properties as Record<string, JsonObject>) };
  for (const [name, field] of Object.entries(def.fields)) {
    const property = properties[name];
    if (field.default !== undefined && property)
      properties[name] = { ...property, description: `${String(property.description)} Left out: ${field.default}.` };
  }
  return { ...schema, properties };
}

/** The item schema plus its associations, which appear only when `fields` names them. */
function itemWithAssociations(def: ResourceDef, lookup: ResourceLookup, format: 'json' | 'xml'): JsonObject {
  const base = toJsonSchema(itemSchema(def));
  const properties = { ...(base.properties as JsonObject) };
  for (const [name, association] of Object.entries(def.associations)) {
    const target = lookup(association.target);
    if (target) properties[name] = associationSchema(name, association, target, format);
  }
  // Nothing else is ever in an item: write-only sets (foodIds) stay out, and a validator can say so. No field is
  // required: fields names the ones the answer holds.
  const description =
    `${capitalize(withArticle(def.singular))} as fields selects it: only the named fields are there (without ` +
    `fields, every field but the associations, as in ${capitalize(def.singular)}).`;
  return { ...base, description, properties, additionalProperties: false, xml: { name: def.singular } };
}

/** JSON shows an array association like a list (`[{"dog": …}]`), XML as a wrapped run of elements. */
function associationSchema(
  name: string,
  association: AssociationDef,
  target: ResourceDef,
  format: 'json' | 'xml',
): JsonObject {
  const names = schemaNames(target);
  if (association.kind === 'one') {
    return {
      description: `The ${name}, or null when there is none. Present only when fields names it.`,
      anyOf: [ref('schemas', format === 'xml' ? names.fieldsXml : names.fields), { type: 'null' }],
    };
  }
  const description =
    `The ${name}: the first 100 in creation order (the nested path pages through all). Present only when fields ` +
    `names it.`;
  if (format === 'json') return { description, type: 'array', items: ref('schemas', names.fieldsEnvelope) };
  return { description, type: 'array', xml: { wrapped: true }, items: ref('schemas', names.fieldsXml) };
}

/** The error body of SPEC §9 and the count envelope, shared by every resource. */
export function sharedSchemas(portalUrl: string): Record<string, JsonObject> {
  const count = { type: 'integer', minimum: 0, description: 'How many items match.', examples: [42] };
  return {
    Error: {
      type: 'object',
      description:
        'Every error of the API. In XML the root element is `<error>`; response_code comes first when present.',
      xml: { name: 'error' },
      required: ['message', 'more_info', 'code'],
      properties: {
        response_code: {
          type: 'string',
          pattern: '^[1-5][0-9]{2}$',
          examples: ['404'],
          description: 'Only with suppress_response_codes=true: the HTTP status the answer would have had.',
        },
        message: { type: 'string', description: 'What went wrong and how to fix it, in plain language.' },
        more_info: {
          type: 'string',
          format: 'uri',
          description: 'A portal page that explains the code.',
          examples: [`${portalUrl}/errors/4000`],
        },
        code: {
          type: 'integer',
          description: "The error's number in the catalogue; a code never changes meaning.",
          examples: [4000],
        },
      },
    },
    SuppressedError: suppressedErrorSchema(),
    Count: {
      type: 'object',
      description: 'A count in its JSON envelope.',
      required: ['count'],
      properties: { count },
      additionalProperties: false,
    },
    CountXml: { ...count, xml: { name: 'count' }, description: 'A count in XML: `<count>42</count>`.' },
  };
}
