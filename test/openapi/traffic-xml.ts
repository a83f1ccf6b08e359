// The XML half of the replay: well-formed, the root a schema names, and the element names inside against it.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Json } from './document-helper.js';
import { schemaName, type Outcome, type VersionDocument } from './traffic-document.js';

// Every element's text stays a string, an attribute-free tree: only the element names are compared with the schema.
const xmlParser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, parseTagValue: false });

/**
 * XML is checked for well-formedness, its root element (the schema's xml.name, else its component name) and the
 * names of the elements inside (each a property of its schema, repeated only where the schema has an array, the
 * required ones present); the text of an element is not type-checked, XML carries every value as text.
 */
export function checkXml(doc: VersionDocument, media: Json, body: string, where: string): Outcome {
  if (XMLValidator.validate(body) !== true) return { kind: 'xml', detail: `${where}: the body is not well-formed XML` };
  const parsed = xmlParser.parse(body) as Json;
  const roots = Object.keys(parsed);
  if (!media.schema) return {};
  const candidates = xmlCandidates(doc, media.schema);
  const named = candidates.filter((candidate) => roots.length === 1 && candidate.name === roots[0]);
  if (named.length === 0) {
    const expected = [...new Set(candidates.map((candidate) => candidate.name))].join('|');
    return { kind: 'xml', detail: `${where}: root <${roots.join('|')}>, the document says <${expected}>` };
  }
  const problems = named.map((candidate) => xmlShapeProblem(doc, candidate.schema, parsed[roots[0]!], roots[0]!));
  if (problems.includes(undefined)) return {};
  return { kind: 'xml', detail: `${where} (${schemaName(media.schema)}): ${problems[0]}` };
}

/**
 * The schemas an XML answer may follow, each with its root's name (its xml.name, else its component name): the
 * branches of anyOf/oneOf, and the `then` of an if/then whose else allows nothing (how a suppressed error is written).
 */
function xmlCandidates(doc: VersionDocument, given: Json, name?: string): Array<{ name: string; schema: Json }> {
  if (typeof given.$ref === 'string') return xmlCandidates(doc, doc.resolve(given), schemaName(given));
  const branches: Json[] | undefined = given.anyOf ?? given.oneOf;
  if (branches) return branches.flatMap((branch) => xmlCandidates(doc, branch));
  if (given.then && given.else?.not) return xmlCandidates(doc, given.then);
  return [{ name: given.xml?.name ?? name ?? 'an unnamed schema', schema: given }];
}

/** The first element of `value` (a parsed element) that `schema` does not allow, or undefined. */
function xmlShapeProblem(doc: VersionDocument, given: Json, value: unknown, at: string): string | undefined {
  const schema = branchOf(doc, doc.resolve(given), 'object');
  // Text (a leaf, or an element left empty: no children, null or an empty list) is not compared.
  if (typeof value !== 'object' || value === null || schema === undefined) return undefined;
  const byElement = new Map<string, Json>();
  const { properties, required } = ownAndAllOf(doc, schema);
  for (const [name, property] of Object.entries<Json>(properties)) {
    const resolved = doc.resolve(property);
    const list = branchOf(doc, resolved, 'array');
    byElement.set(list?.xml?.name ?? resolved.xml?.name ?? name, resolved);
    if (list && !list.xml?.wrapped) byElement.set(doc.resolve(list.items).xml?.name ?? name, resolved);
  }
  for (const name of required) {
    if (!(name in (value as Json))) return `<${at}> has no <${name}>`;
  }
  for (const [name, child] of Object.entries(value as Json)) {
    const property = byElement.get(name);
    if (!property) return `<${at}> holds <${name}>, which its schema does not name`;
    const problem = childProblem(doc, property, child, `${at}/${name}`);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** One child element (or the repeats of one) against its property: a list is repeated, or wrapped in one element. */
function childProblem(doc: VersionDocument, property: Json, child: unknown, at: string): string | undefined {
  const list = branchOf(doc, property, 'array');
  if (Array.isArray(child) && (!list || list.xml?.wrapped)) return `<${at}> is repeated, its schema is no list of it`;
  let items: unknown[] = Array.isArray(child) ? child : [child];
  if (list?.xml?.wrapped) {
    // <dogs><dog>…</dog><dog>…</dog></dogs>: the wrapper holds only the items (or nothing: an empty list).
    if (typeof child !== 'object' || child === null) return undefined;
    const names = Object.keys(child);
    const itemName = doc.resolve(list.items).xml?.name;
    if (names.length !== 1 || (itemName !== undefined && names[0] !== itemName))
      return `<${at}> wraps <${names.join('|')}>, its schema a list of <${itemName ?? 'one element'}>`;
    const inside = (child as Json)[names[0]!];
    items = Array.isArray(inside) ? inside : [inside];
  }
  for (const item of items) {
    const problem = xmlShapeProblem(doc, list ? list.items : property, item, at);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The branch of a schema of the given type (`anyOf` with null, for a nested object or list that may be absent). */
function branchOf(doc: VersionDocument, schema: Json, type: 'object' | 'array'): Json | undefined {
  const fits = (branch: Json): boolean => branch.type === type || (type === 'object' && branch.properties);
  if (fits(schema)) return schema;
  const branches: Json[] = schema.anyOf ?? schema.oneOf ?? [];
  return branches.map((branch) => doc.resolve(branch)).find(fits);
}

/** The properties and required names of an object schema with those of its allOf members (SuppressedError's Error). */
function ownAndAllOf(doc: VersionDocument, schema: Json): { properties: Json; required: string[] } {
  const parts = [schema, ...((schema.allOf ?? []) as Json[]).map((member) => doc.resolve(member))];
  return {
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {})),
    required: parts.flatMap((part) => part.required ?? []),
  };
}
