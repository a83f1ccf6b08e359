// JSON Schemas of a resource, built from its definition: they validate request bodies and generate OpenAPI.
import { Type, type TSchema } from '@sinclair/typebox';
import { representedFields, type FieldDef, type ResourceDef } from './definition.js';

export const MAX_TEXT_LENGTH = 100;
/** The most ids a write-only set (foodIds, veterinarianIds) may hold. */
export const MAX_REFS = 100;

function fieldSchema(field: FieldDef, nullable: boolean): TSchema {
  const options = { description: field.description, ...(field.example ? { examples: [field.example] } : {}) };
  let schema: TSchema;
  switch (field.kind) {
    case 'enum':
      schema = Type.Union(
        (field.values ?? []).map((value) => Type.Literal(value)),
        options,
      );
      break;
    case 'email':
      schema = Type.String({ ...options, format: 'email', maxLength: MAX_TEXT_LENGTH });
      break;
    case 'ref':
      schema = Type.String({ ...options, pattern: '^[A-Za-z0-9_-]+$', maxLength: MAX_TEXT_LENGTH });
      break;
    case 'text':
      schema = Type.String({ ...options, minLength: 1, maxLength: MAX_TEXT_LENGTH });
      break;
    case 'refs':
      // In a form body: the ids comma-separated in one field; null or blank clears the set.
      return Type.Array(Type.String({ pattern: '^[A-Za-z0-9_-]+$', maxLength: MAX_TEXT_LENGTH }), {
        ...options,
        maxItems: MAX_REFS,
      });
  }
  return nullable ? Type.Union([schema, Type.Null()], options) : schema;
}

/** A field can be null when it is neither required nor an enum with a default. */
function isNullable(field: FieldDef): boolean {
  return !field.required && field.default === undefined;
}

/** The body of a create: required fields required, every field checked, nothing else allowed. */
export function createSchema(def: ResourceDef): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [name, field] of Object.entries(def.fields)) {
    const schema = fieldSchema(field, isNullable(field));
    properties[name] = field.required ? schema : Type.Optional(schema);
  }
  return Type.Object(properties, { additionalProperties: false, title: `New ${def.singular}` });
}

/** The body of a PUT: like a create, but every field optional (omitted fields keep their values). */
export function updateSchema(def: ResourceDef): TSchema {
  const properties: Record<string, TSchema> = {};
  for (const [name, field] of Object.entries(def.fields))
    properties[name] = Type.Optional(fieldSchema(field, isNullable(field)));
  return Type.Object(properties, { additionalProperties: false, title: `Changes to a ${def.singular}` });
}

/** One item as represented (every field may be left out by `fields`). */
export function itemSchema(def: ResourceDef): TSchema {
  const properties: Record<string, TSchema> = {
    id: Type.Optional(Type.String({ description: 'Opaque id assigned by the service.', pattern: '^[A-Za-z0-9_-]+$' })),
  };
  for (const [name, field] of Object.entries(def.fields)) {
    if (field.kind !== 'refs') properties[name] = Type.Optional(fieldSchema(field, isNullable(field)));
  }
  properties.createdAt = Type.Optional(
    Type.String({ format: 'date-time', description: 'When the item was created (RFC 3339, UTC).' }),
  );
  properties.updatedAt = Type.Optional(
    Type.String({ format: 'date-time', description: 'When the item was last changed (RFC 3339, UTC).' }),
  );
  const ordered: Record<string, TSchema> = {};
  for (const name of representedFields(def)) ordered[name] = properties[name]!;
  return Type.Object(ordered, { title: def.singular });
}
