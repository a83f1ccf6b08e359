// Builds the OpenAPI 3.1 document of one API version from the resource definitions, their endpoints and schemas.
import type { Config } from '../config.js';
import type { Verb } from '../http/context.js';
import type { Endpoint } from '../http/endpoint.js';
import { CURRENT_VERSION, type Version } from '../http/versions.js';
import type { ResourceDef } from '../resources/definition.js';
import { resources } from '../resources/index.js';
import { resourceEndpoints } from '../routes/resource-routes.js';
import type { Storage } from '../storage/storage.js';
import { convertPath, convertSchemas } from './convert.js';
import { ref, type JsonObject } from './json-schema.js';
import { describeOperation } from './operations.js';
import { PATH_CONTROL_REFS, resourceParameters, sharedParameters } from './parameters.js';
import { headerComponents, responseComponents } from './responses.js';
import { resourceSchemas, sharedSchemas } from './schemas.js';

const VERBS: readonly Verb[] = ['GET', 'POST', 'PUT', 'DELETE'];

/** The endpoints are only described here, never run, so they get a storage that refuses every use. */
const NO_STORAGE = new Proxy({}, {
  get() {
    throw new Error('The OpenAPI document describes operations and never runs them.');
  },
}) as Storage;

/** The document of `version`; `defs` defaults to every resource the service serves. */
export function buildDocument(config: Config, version: Version, defs: readonly ResourceDef[] = resources): JsonObject {
  const byName = new Map(defs.map((def) => [def.name, def]));
  const lookup = (name: string): ResourceDef | undefined => byName.get(name);
  const paths: JsonObject = {};
  for (const def of defs) {
    for (const endpoint of resourceEndpoints(def, { storage: NO_STORAGE, config })) Object.assign(paths, pathOf(def, endpoint, version));
  }
  Object.assign(paths, convertPath());
  if (version < CURRENT_VERSION) markDeprecated(paths);
  return {
    openapi: '3.1.1',
    info: { title: 'Dog Registry Service', version: `v${version}`, summary: 'A registry of dogs and the people and things around them.', description: describeVersion(config, version) },
    externalDocs: { description: 'The developer portal: sign-up, error codes, versions.', url: config.portalUrl },
    servers: [{ url: `${config.publicUrl}/v${version}`, description: `Version ${version} of the API` }],
    tags: [...defs.map((def) => ({ name: def.name, description: def.description })), { name: 'conversion', description: 'Currency conversion with the ECB euro reference rates.' }],
    paths,
    components: {
      schemas: Object.assign(sharedSchemas(config.portalUrl), ...defs.map((def) => resourceSchemas(def, lookup)), convertSchemas()),
      parameters: Object.assign(sharedParameters(), ...defs.map(resourceParameters)),
      responses: responseComponents(),
      headers: headerComponents(),
      securitySchemes: securitySchemes(config),
    },
  };
}

/** Every operation of an earlier version is deprecated (OpenAPI's `deprecated`): v1 answers carry Deprecation once V1_SUNSET is set. */
function markDeprecated(paths: JsonObject): void {
  for (const item of Object.values(paths) as JsonObject[]) {
    for (const [key, operation] of Object.entries(item)) {
      if (key !== 'parameters') item[key] = { ...(operation as JsonObject), deprecated: true };
    }
  }
}

/** One endpoint as a path item with the operations described; none when nothing is described. */
function pathOf(def: ResourceDef, endpoint: Endpoint, version: Version): JsonObject {
  const rest = endpoint.path.startsWith(`/${def.name}`) ? endpoint.path.slice(def.name.length + 1) : endpoint.path;
  const item: JsonObject = {};
  for (const verb of VERBS) {
    const operation = endpoint.operations[verb] && describeOperation(def, rest, verb, version, endpoint.open ?? false);
    if (operation) item[verb.toLowerCase()] = operation;
  }
  if (Object.keys(item).length === 0) return {};
  const path = endpoint.path.replace(/:(\w+)/g, '{$1}');
  const parameters = [...(path.includes('{id}') ? [ref('parameters', 'id')] : []), ...PATH_CONTROL_REFS];
  return { [path]: { parameters, ...item } };
}

function securitySchemes(config: Config): JsonObject {
  const tokenUrl = `${config.publicUrl}/oauth2/token`;
  const scopes = { read: 'Read: every GET.', write: 'Change: every POST, PUT and DELETE, method overrides included.' };
  return {
    oauth2: {
      type: 'oauth2',
      description: `Send the access token as Authorization: Bearer <token>, or as access_token. Sign up at ${config.portalUrl}/signup to get a client.`,
      flows: {
        clientCredentials: { tokenUrl, scopes },
        authorizationCode: { authorizationUrl: `${config.publicUrl}/oauth2/authorize`, tokenUrl, refreshUrl: tokenUrl, scopes },
      },
    },
  };
}

function describeVersion(config: Config, version: Version): string {
  const status = version === CURRENT_VERSION
    ? `v${version} is the current version: a creation answers 201 Created with the new item's URL in Location.`
    : `v${version} is an earlier version, deprecated since ${config.v1Deprecated}, that stays available: a creation answers 200. v${CURRENT_VERSION} is current; `
      + `moving to it means accepting 201 Created (with Location) where v${version} answers 200. See ${config.portalUrl}/versions.`;
  const sunset = version < CURRENT_VERSION && config.v1Sunset
    ? ` v${version} is retired on ${config.v1Sunset} (00:00 UTC); until then every v${version} answer carries Deprecation, Sunset and a Link with rel="deprecation".`
    : '';
  return [
    `The Dog Registry Service keeps dogs, their owners, veterinarians and food. ${status}${sunset}`,
    'Answers are JSON by default and XML on request: end the path with .json or .xml (/dogs.xml, /dogs/{id}.xml), or send Accept: application/xml.',
    `Every error has a plain-language message, an integer code and a more_info link to ${config.portalUrl}/errors/<code>.`,
    'Clients that cannot send PUT or DELETE, or read statuses other than 200, can use the method and suppress_response_codes parameters.',
  ].join('\n\n');
}
