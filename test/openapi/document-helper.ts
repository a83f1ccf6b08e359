// Helpers of the OpenAPI tests: fetch a served document, compile its schemas strictly, walk its operations, list the app's routes.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { TestApp } from '../helper.js';

export // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads deep into parsed JSON documents
type Json = { [key: string]: any };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020, formats: string[]) => Ajv2020;

export async function fetchDocument(api: TestApp, version: number): Promise<Json> {
  const response = await api.request({ url: `/portal/openapi/v${version}.json` });
  assert.equal(response.statusCode, 200);
  assert.match(String(response.headers['content-type']), /^application\/json/);
  return response.json();
}

/** The document's component schemas under a strict JSON Schema 2020-12 validator, refs rewired to $defs. */
export function schemaValidators(document: Json): (name: string) => ValidateFunction {
  const ajv = addFormats(new Ajv2020({ strict: true, allErrors: true }), ['email', 'date-time', 'uri']);
  ajv.addKeyword('xml');
  const rewired = JSON.parse(
    JSON.stringify(document.components.schemas).replaceAll('#/components/schemas/', '#/$defs/'),
  );
  ajv.addSchema({ $id: 'https://openapi.test/schemas', $defs: rewired });
  return (name) => {
    const validate = ajv.getSchema(`https://openapi.test/schemas#/$defs/${name}`);
    assert.ok(validate, `no schema ${name}`);
    return validate;
  };
}

/** Asserts that a live JSON body matches a documented schema, naming the errors when it does not. */
export function assertMatches(validate: ValidateFunction, body: unknown, what: string): void {
  assert.ok(validate(body), `${what}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`);
}

export function operationsOf(document: Json): Array<[string, string, Json]> {
  return Object.entries<Json>(document.paths).flatMap(([path, item]) =>
    Object.entries<Json>(item)
      .filter(([key]) => key !== 'parameters' && key !== 'description')
      .map(([method, operation]): [string, string, Json] => [path, method, operation]),
  );
}

export function resolve(document: Json, value: Json): Json {
  const pointer: string | undefined = value.$ref;
  if (!pointer) return value;
  return pointer
    .slice(2)
    .split('/')
    .reduce<Json>((node, key) => node[key], document);
}

/** The names of an operation's parameters, path-level ones included, references resolved. */
export function parameterNames(document: Json, path: string, operation: Json): string[] {
  const all = [...(document.paths[path].parameters ?? []), ...(operation.parameters ?? [])];
  return all.map((parameter: Json) => resolve(document, parameter).name);
}

/** The schema a response gives JSON, by component name: `DogsList` (the operation's own, before any alternative). */
export function jsonSchemaName(document: Json, response: Json): string {
  const schema = resolve(document, response).content['application/json'].schema;
  return String((schema.anyOf?.[0] ?? schema).$ref)
    .split('/')
    .pop()!;
}

/** Every route the app registered, with its methods, read from Fastify's route tree (`/v1/dogs/:id` → GET, HEAD, …). */
export function registeredRoutes(app: FastifyInstance): Map<string, string[]> {
  const routes = new Map<string, string[]>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const at = line.search(/[├└]── /);
    if (at === -1) continue;
    const depth = at / 4;
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(line.slice(at + 4))!;
    stack.length = depth;
    stack.push(match[1]!);
    if (match[2]) routes.set(stack.join(''), match[2].split(', '));
  }
  return routes;
}

/** The URL a documented path answers at, with `abc` for each path parameter. */
export function liveUrl(path: string, version: number): string {
  return `/v${version}${path.replace(/\{\w+\}/g, 'abc')}`;
}
