// Replays recorded exchanges against the OpenAPI documents: path, method, status, content type and body schema.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Json } from './document-helper.js';
import type { TrafficLine } from './traffic-recorder.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

export interface Mismatch {
  line: TrafficLine;
  detail: string;
}

export interface TrafficReport {
  /** Exchanges checked against a document. */
  checked: number;
  /** Exchanges left out, by reason. */
  excluded: Map<string, number>;
  /** Mismatches by kind (`status`, `content type`, …, with the feature the request used in brackets). */
  mismatches: Map<string, Mismatch[]>;
  /** `v2 GET /dogs/{id}`: every documented operation at least one exchange reached. */
  exercised: Set<string>;
}

/** Every line of every file the recorder wrote in `directory`. */
export function readTraffic(directory: string): TrafficLine[] {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.jsonl'))
    .flatMap((name) => readFileSync(join(directory, name), 'utf8').split('\n'))
    .filter((text) => text !== '')
    .map((text) => JSON.parse(text) as TrafficLine);
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** `v2 GET /dogs`: every operation the documents describe, by version. */
export function operationKeys(documents: ReadonlyMap<number, Json>): string[] {
  return [...documents].flatMap(([version, document]) =>
    Object.entries<Json>(document.paths).flatMap(([path, item]) =>
      METHODS.filter((method) => item[method]).map((method) => `v${version} ${method.toUpperCase()} ${path}`),
    ),
  );
}

interface Template {
  path: string;
  pattern: RegExp;
  /** Literal characters: a concrete path wins over a templated one (OpenAPI's matching rule). */
  weight: number;
}

/** A path template as a pattern: a parameter is one segment, and the last one never holds a dot (a format suffix). */
function templateOf(path: string): Template {
  const parts = path.split(/(\{[^}]+\})/);
  let source = '';
  parts.forEach((part, index) => {
    if (!part.startsWith('{')) source += part.replace(/[.*+?^$()[\]\\|]/g, '\\$&');
    else
      source +=
        index === parts.length - 2 && parts.at(-1) === '' && parts[index - 1]!.endsWith('/') ? '[^/.]+' : '[^/]+';
  });
  return { path, pattern: new RegExp(`^${source}$`), weight: path.replace(/\{[^}]+\}/g, '').length };
}

class VersionDocument {
  readonly templates: Template[];
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly ajv: Ajv2020;

  constructor(readonly document: Json) {
    this.templates = Object.keys(document.paths)
      .map(templateOf)
      .sort((a, b) => b.weight - a.weight);
    this.ajv = addFormats(new Ajv2020({ strict: false, allErrors: false }));
    this.ajv.addSchema({ $id: 'https://openapi.test/schemas', $defs: rewire(document.components?.schemas ?? {}) });
  }

  match(path: string): string | undefined {
    return this.templates.find((template) => template.pattern.test(path))?.path;
  }

  resolve(value: Json): Json {
    let node = value;
    while (typeof node?.$ref === 'string') {
      node = (node.$ref as string)
        .slice(2)
        .split('/')
        .reduce<Json>((at, key) => at[key.replaceAll('~1', '/').replaceAll('~0', '~')], this.document);
    }
    return node;
  }

  validator(schema: Json): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile(rewire(schema));
      this.validators.set(key, validate);
    }
    return validate;
  }
}

function rewire(schema: Json): Json {
  return JSON.parse(
    JSON.stringify(schema).replaceAll('"#/components/schemas/', '"https://openapi.test/schemas#/$defs/'),
  );
}

/** Checks every line against the document of its version; see TrafficReport. */
export function checkTraffic(documents: ReadonlyMap<number, Json>, lines: Iterable<TrafficLine>): TrafficReport {
  const report: TrafficReport = { checked: 0, excluded: new Map(), mismatches: new Map(), exercised: new Set() };
  const byVersion = new Map([...documents].map(([version, document]) => [version, new VersionDocument(document)]));
  for (const line of lines) {
    const outcome = checkLine(byVersion, line, report.exercised);
    if (outcome.excluded !== undefined) {
      report.excluded.set(outcome.excluded, (report.excluded.get(outcome.excluded) ?? 0) + 1);
      continue;
    }
    report.checked += 1;
    if (outcome.kind === undefined) continue;
    const kind = `${outcome.kind}${featuresOf(line)}`;
    const list = report.mismatches.get(kind) ?? [];
    list.push({ line, detail: outcome.detail! });
    report.mismatches.set(kind, list);
  }
  return report;
}

interface Outcome {
  excluded?: string;
  kind?: string;
  detail?: string;
}

/** The service's features a request used that the document may not describe: they name a mismatch's group. */
function featuresOf(line: TrafficLine): string {
  const [pathname = '', search = ''] = line.url.split('?');
  const query = new URLSearchParams(search);
  const features: string[] = [];
  const lastSlash = pathname.lastIndexOf('/');
  if (lastSlash > 0 && pathname.includes('.', lastSlash)) features.push('format suffix');
  if (query.has('method') || line.override !== undefined || bodyNamesMethod(line)) features.push('method override');
  if (query.get('suppress_response_codes')?.toLowerCase() === 'true') features.push('suppress_response_codes');
  if (query.has('access_token')) features.push('access_token');
  return features.length === 0 ? '' : ` [${features.join(', ')}]`;
}

/** A form or JSON body with a `method` field: the override a form can carry. */
function bodyNamesMethod(line: TrafficLine): boolean {
  const body = line.requestBody;
  if (body === undefined) return false;
  if (/json/.test(line.requestType ?? '')) return /"method"\s*:/.test(body);
  return new URLSearchParams(body).has('method');
}

function checkLine(byVersion: Map<number, VersionDocument>, line: TrafficLine, exercised: Set<string>): Outcome {
  if (line.protocolError !== undefined) return { excluded: `refused by Node before routing (${line.protocolError})` };
  if (line.host !== undefined && /^(dev|developer)\./.test(line.host))
    return { excluded: "the portal's host aliases (dev., developer.), redirected to the portal" };
  const pathname = line.url.split('?')[0]!;
  const versioned = /^\/v(\d+)(\/.*)?$/.exec(pathname);
  if (!versioned) return { excluded: 'outside /v<N>: portal, OAuth and infrastructure' };
  const doc = byVersion.get(Number(versioned[1]));
  if (!doc) return { excluded: 'a version the service does not have' };
  // The router ignores one trailing slash: /v1/dogs/ is /v1/dogs.
  const path = (versioned[2] ?? '').replace(/(.)\/$/, '$1');
  const template = doc.match(path);
  if (template === undefined) return unmatchedPath(doc, path, line);
  const item: Json = doc.document.paths[template];
  // HEAD is GET without the body (RFC 9110 §9.3.2): it is checked against the GET operation.
  const method = line.method.toLowerCase();
  const operation: Json | undefined = item[method] ?? (method === 'head' ? item.get : undefined);
  if (!operation) {
    if (isRefusal(line)) return { excluded: 'a method the path does not offer, refused' };
    return { kind: 'method', detail: `${line.method} is not documented at ${template} but answered ${line.status}` };
  }
  exercised.add(`v${versioned[1]} ${line.method} ${template}`);
  return checkAnswer(doc, operation, line, `${method} ${template}`);
}

/** A 4xx, also one suppressed into a 200 (suppress_response_codes: its response_code says what it would have been). */
function isRefusal(line: TrafficLine): boolean {
  const suppressed =
    line.status === 200 ? /"response_code":"(\d{3})"|<response_code>(\d{3})</.exec(decoded(line)) : null;
  const status = suppressed ? Number(suppressed[1] ?? suppressed[2]) : line.status;
  return status >= 400 && status < 500;
}

function unmatchedPath(doc: VersionDocument, path: string, line: TrafficLine): Outcome {
  const refused = isRefusal(line);
  // The runtime strips any suffix of the last segment (`/dogs/abc.xml`): the path it then routes may be documented.
  const suffix = /\.([^/]*)$/.exec(path);
  const routed = suffix ? doc.match(path.slice(0, suffix.index)) : undefined;
  if (routed !== undefined) {
    if (refused && !/^(json|xml)$/i.test(suffix![1]!))
      return { excluded: 'a format suffix the service does not have, refused' };
    return { kind: 'path', detail: `the suffix form of ${routed} is not documented` };
  }
  if (refused) return { excluded: 'a path the API does not have, refused' };
  return { kind: 'path', detail: `no documented path matches, answered ${line.status}` };
}

function responseFor(operation: Json, status: number): Json | undefined {
  const responses: Json = operation.responses ?? {};
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}

function checkAnswer(doc: VersionDocument, operation: Json, line: TrafficLine, where: string): Outcome {
  const documented = responseFor(operation, line.status);
  if (!documented) return { kind: 'status', detail: `${line.status} is not a documented answer of ${where}` };
  const response = doc.resolve(documented);
  const body = decoded(line);
  const content: Json | undefined = response.content;
  const mediaType = (line.type ?? '').split(';')[0]!.trim().toLowerCase();
  if (body === '') {
    const mayBeEmpty =
      line.method === 'HEAD' || line.status === 204 || line.status === 304 || !content || onlyConditional(doc, content);
    if (!mayBeEmpty) return { kind: 'body', detail: `${where} ${line.status}: an empty body where one is documented` };
    // A HEAD names the type its GET would send: that one must be documented too.
    if (!content || mediaType === '' || mediaOf(content, mediaType)) return {};
  } else if (!content) {
    return { kind: 'body', detail: `${where} ${line.status} documents no body, got ${mediaType || 'one'}` };
  }
  const media = mediaOf(content!, mediaType);
  if (!media)
    return {
      kind: 'content type',
      detail: `${where} ${line.status}: ${mediaType || 'no type'} is not one of ${Object.keys(content!).join(', ')}`,
    };
  if (/[/+]json$/.test(mediaType)) return checkJson(doc, media, body, `${where} ${line.status}`);
  if (/[/+]xml$/.test(mediaType)) return checkXml(doc, media, body, `${where} ${line.status}`);
  return {};
}

/**
 * Whether every body a response documents is conditional (an if/then that allows nothing else: a suppressed error),
 * so that the answer may as well have none: a DELETE's 200 is empty unless it carries a suppressed error.
 */
function onlyConditional(doc: VersionDocument, content: Json): boolean {
  const conditional = (given: Json): boolean => {
    const schema = doc.resolve(given);
    const branches: Json[] | undefined = schema.anyOf ?? schema.oneOf;
    if (branches) return branches.every(conditional);
    return schema.then !== undefined && schema.else?.not !== undefined;
  };
  return Object.values<Json>(content).every((media) => media.schema !== undefined && conditional(media.schema));
}

function mediaOf(content: Json, mediaType: string): Json | undefined {
  return content[mediaType] ?? content[`${mediaType.split('/')[0]}/*`] ?? content['*/*'];
}

function decoded(line: TrafficLine): string {
  if (line.encoding === undefined || line.encoding === 'identity') return line.body;
  const raw = Buffer.from(line.body, 'base64');
  if (line.encoding === 'gzip') return gunzipSync(raw).toString('utf8');
  if (line.encoding === 'br') return brotliDecompressSync(raw).toString('utf8');
  if (line.encoding === 'deflate') return inflateSync(raw).toString('utf8');
  return line.body;
}

function checkJson(doc: VersionDocument, media: Json, body: string, where: string): Outcome {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { kind: 'schema', detail: `${where}: the body is not JSON` };
  }
  if (!media.schema) return {};
  const validate = doc.validator(media.schema);
  if (validate(value)) return {};
  const errors = (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ');
  return { kind: 'schema', detail: `${where} (${schemaName(media.schema)}): ${errors}` };
}

// Every element's text stays a string, an attribute-free tree: only the element names are compared with the schema.
const xmlParser = new XMLParser({ ignoreAttributes: true, ignoreDeclaration: true, parseTagValue: false });

/**
 * XML is checked for well-formedness, its root element (the schema's xml.name, else its component name) and the
 * names of the elements inside (each a property of its schema, repeated only where the schema has an array, the
 * required ones present); the text of an element is not type-checked, XML carries every value as text.
 */
function checkXml(doc: VersionDocument, media: Json, body: string, where: string): Outcome {
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
  for (const [name, property] of Object.entries<Json>(schema.properties ?? {})) {
    const resolved = doc.resolve(property);
    const list = branchOf(doc, resolved, 'array');
    byElement.set(list?.xml?.name ?? resolved.xml?.name ?? name, resolved);
    if (list && !list.xml?.wrapped) byElement.set(doc.resolve(list.items).xml?.name ?? name, resolved);
  }
  for (const required of schema.required ?? []) {
    if (!(required in (value as Json))) return `<${at}> has no <${required}>`;
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

function schemaName(schema: Json): string {
  return typeof schema.$ref === 'string' ? schema.$ref.split('/').pop()! : 'inline schema';
}

/** The mismatches as text, grouped by kind with counts, a few examples each. */
export function describeMismatches(report: TrafficReport, examples = 5): string {
  return [...report.mismatches]
    .sort(([, a], [, b]) => b.length - a.length)
    .map(([kind, list]) => {
      const details = new Map<string, number>();
      for (const { detail } of list) details.set(detail, (details.get(detail) ?? 0) + 1);
      const top = [...details].sort(([, a], [, b]) => b - a).slice(0, examples);
      return [`${kind}: ${list.length}`, ...top.map(([detail, count]) => `  ${count} × ${detail}`)].join('\n');
    })
    .join('\n');
}
