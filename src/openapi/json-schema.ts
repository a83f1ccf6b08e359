// TypeBox schemas → plain JSON Schema 2020-12 for the OpenAPI document, and the naming of its components.
import type { TSchema } from '@sinclair/typebox';
import type { ResourceDef } from '../resources/definition.js';

export type JsonObject = { [key: string]: unknown };

/** A `$ref` to a component of the document: `ref('schemas', 'Dog')`. */
export function ref(kind: 'schemas' | 'parameters' | 'responses' | 'headers', name: string): JsonObject {
  return { $ref: `#/components/${kind}/${name}` };
}

/**
 * A deep copy with string keys only, so TypeBox's symbol markers (Kind, Optional) stay
 * behind; validation is unchanged, but unions read better in documentation tools.
 */
export function toJsonSchema(schema: TSchema): JsonObject {
  return tidy(schema) as JsonObject;
}

function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (value === null || typeof value !== 'object') return value;
  const copy: JsonObject = {};
  for (const [key, child] of Object.entries(value)) copy[key] = tidy(child);
  return Array.isArray(copy.anyOf) ? simplifyUnion(copy, copy.anyOf as JsonObject[]) : copy;
}

/** A union of string constants becomes one `enum`; members lose the union's repeated annotations. */
function simplifyUnion(schema: JsonObject, members: readonly JsonObject[]): JsonObject {
  const constants = members.every(
    (member) => member.type === 'string' && 'const' in member && Object.keys(member).length === 2,
  );
  const result: JsonObject = { ...schema };
  delete result.anyOf;
  if (constants) return { ...result, type: 'string', enum: members.map((member) => member.const) };
  result.anyOf = members.map((member) => {
    const trimmed = { ...member };
    for (const key of ['description', 'examples'] as const) {
      if (JSON.stringify(trimmed[key]) === JSON.stringify(schema[key])) delete trimmed[key];
    }
    return trimmed;
  });
  return result;
}

/** `a dog`, `an owner`: the indefinite article for a noun of the document. */
export function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** The component names of one resource's schemas. */
export interface SchemaNames {
  /** One whole item, every field present (null when empty), as a write or a search answers it, in JSON and XML. */
  readonly item: string;
  /** One item as `fields` selects it: any field may be absent, associations appear when named. */
  readonly fields: string;
  /** The same as XML shows it: array associations are wrapped runs of elements there. */
  readonly fieldsXml: string;
  readonly create: string;
  readonly update: string;
  /** `{"dog": Dog}`: the JSON envelope of one whole item. */
  readonly envelope: string;
  /** `{"dog": DogFields}`: the JSON envelope of one selected item. */
  readonly fieldsEnvelope: string;
  /** `{"dogs": [{"dog": Dog}]}`: the JSON envelope of a list. */
  readonly list: string;
  /** `<dogs><dog>…</dog></dogs>`: the XML envelope of a list. */
  readonly listXml: string;
}

export function schemaNames(def: ResourceDef): SchemaNames {
  const item = capitalize(def.singular);
  const hasArrays = Object.values(def.associations).some((association) => association.kind === 'many');
  return {
    item,
    fields: `${item}Fields`,
    fieldsXml: hasArrays ? `${item}FieldsXml` : `${item}Fields`,
    create: `New${item}`,
    update: `${item}Changes`,
    envelope: `${item}Envelope`,
    fieldsEnvelope: `${item}FieldsEnvelope`,
    list: `${capitalize(def.name)}List`,
    listXml: `${capitalize(def.name)}ListXml`,
  };
}
