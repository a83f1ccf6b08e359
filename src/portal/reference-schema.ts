// Reads the JSON Schemas of an OpenAPI document for the reference page: $refs, a type in words, the rules, the fields
// of a body, and a small example value when the document gives none.
import type { JsonObject } from '../openapi/json-schema.js';

/** Follows `#/components/...` references (a chain of them, too) to what they name; anything else is returned as is. */
export function resolve(document: JsonObject, value: unknown): JsonObject {
  let current = value as JsonObject;
  for (let hops = 0; typeof current?.$ref === 'string' && hops < 10; hops++) {
    const steps = current.$ref.replace(/^#\//, '').split('/');
    current = steps.reduce<unknown>((node, step) => (node as JsonObject | undefined)?.[step], document) as JsonObject;
  }
  return current ?? {};
}

/** The component name of a `$ref` (`#/components/schemas/Dog` → `Dog`), or undefined. */
export function refName(value: unknown): string | undefined {
  const target = (value as JsonObject | undefined)?.$ref;
  return typeof target === 'string' ? target.slice(target.lastIndexOf('/') + 1) : undefined;
}

const members = (schema: JsonObject): JsonObject[] =>
  ((schema.anyOf ?? schema.oneOf) as JsonObject[] | undefined) ?? [];

/**
 * The type in words: `string`, `integer or null`, `array of string`, `DogEnvelope`; a named schema written by `named`
 * (the page links it to its description), the other words by `word`.
 */
export function typeOf(
  document: JsonObject,
  schema: JsonObject,
  named: (name: string) => string = (name) => name,
  word: (text: string) => string = (text) => text,
): string {
  const name = refName(schema);
  if (name) return named(name);
  const union = members(schema);
  if (union.length > 0)
    return [...new Set(union.map((member) => typeOf(document, member, named, word)))].join(word(' or '));
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type ?? 'any'];
  return types
    .map((type) =>
      type === 'array' && schema.items
        ? `${word('array of ')}${typeOf(document, schema.items as JsonObject, named, word)}`
        : word(String(type)),
    )
    .join(word(' or '));
}

/** The rules a value must follow, as short phrases: limits, pattern, values, format, default. */
export function rulesOf(document: JsonObject, given: JsonObject): string[] {
  const schema = resolve(document, given);
  const rules = members(schema).flatMap((member) => rulesOf(document, member));
  const { minLength, maxLength, minimum, maximum, minItems, maxItems } = schema;
  if (minLength !== undefined || maxLength !== undefined) rules.push(range(minLength, maxLength, 'characters'));
  if (minimum !== undefined || maximum !== undefined) rules.push(range(minimum, maximum, ''));
  if (minItems !== undefined || maxItems !== undefined) rules.push(range(minItems, maxItems, 'items'));
  if (typeof schema.format === 'string') rules.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') rules.push(`matches ${schema.pattern}`);
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((value) => JSON.stringify(value)).join(', ')}`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  const items = schema.items as JsonObject | undefined;
  if (items && !refName(items)) rules.push(...rulesOf(document, items).map((rule) => `each ${rule}`));
  return [...new Set(rules)];
}

function range(low: unknown, high: unknown, unit: string): string {
  const suffix = unit ? ` ${(high ?? low) === 1 ? unit.replace(/s$/, '') : unit}` : '';
  if (low !== undefined && high !== undefined) return `${String(low)} to ${String(high)}${suffix}`;
  return low !== undefined ? `at least ${String(low)}${suffix}` : `at most ${String(high)}${suffix}`;
}

export interface Field {
  readonly name: string;
  readonly required: boolean;
  readonly schema: JsonObject;
}

/** The properties of an object schema (through $refs and allOf), in the document's order. */
export function fieldsOf(document: JsonObject, given: JsonObject): Field[] {
  const schema = resolve(document, given);
  const parts = [schema, ...((schema.allOf as JsonObject[] | undefined) ?? []).map((part) => resolve(document, part))];
  const required = new Set(parts.flatMap((part) => (part.required as string[] | undefined) ?? []));
  return parts.flatMap((part) =>
    Object.entries((part.properties as Record<string, JsonObject> | undefined) ?? {}).map(([name, property]) => ({
      name,
      required: required.has(name),
      schema: property,
    })),
  );
}

/**
 * What a request sends: its required fields and those the document gives an example for (an id it has no example of
 * would name nothing). What an answer holds: its required fields and every plain optional one (not the associations,
 * which appear only when asked for).
 */
export type ExampleUse = 'request' | 'answer';

/** A small value that fits the schema: the document's own examples first, then its default, then a plain value. */
export function exampleOf(document: JsonObject, given: JsonObject, use: ExampleUse, depth = 0): unknown {
  const schema = resolve(document, given);
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const union = members(schema).filter((member) => resolve(document, member).type !== 'null');
  if (union.length > 0)
    return union.length < members(schema).length && use === 'answer'
      ? null
      : exampleOf(document, union[0]!, use, depth);
  if (schema.allOf) return exampleOf(document, (schema.allOf as JsonObject[])[0]!, use, depth);
  const type = Array.isArray(schema.type) ? (schema.type as string[])[0] : schema.type;
  if (type === 'array')
    return depth > 4 || !schema.items ? [] : [exampleOf(document, schema.items as JsonObject, use, depth + 1)];
  if (type === 'object' || schema.properties) return objectExample(document, schema, use, depth);
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  return stringExample(schema);
}

function objectExample(document: JsonObject, schema: JsonObject, use: ExampleUse, depth: number): JsonObject {
  const example: JsonObject = {};
  if (depth > 4) return example;
  for (const field of fieldsOf(document, schema)) {
    const property = resolve(document, field.schema);
    const shown = field.required || (use === 'request' ? property.examples !== undefined : !isNested(field.schema));
    if (shown) example[field.name] = exampleOf(document, field.schema, use, depth + 1);
  }
  return example;
}

/** A property holding other items (an association): an answer has it only when asked for. */
function isNested(property: JsonObject): boolean {
  const items = property.items as JsonObject | undefined;
  return refName(property) !== undefined || members(property).some((member) => refName(member)) || !!refName(items);
}

function stringExample(schema: JsonObject): string {
  if (schema.format === 'date-time') return '2025-03-14T09:26:53.589Z';
  if (schema.format === 'uri') return 'https://example.com/';
  if (schema.pattern === '^[A-Za-z0-9_-]+$') return 'k3Rj9XwQpL2m';
  return 'text';
}
