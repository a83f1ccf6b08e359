// Builds the OpenAPI 3.1 document of one API version from the resource definitions, their endpoints and schemas.
import type { Config } from '../config.js';
import type { RateTable } from '../conversion/ecb-rates.js';
import type { Endpoint } from '../http/endpoint.js';
import { CURRENT_VERSION, type Version } from '../http/versions.js';
import type { ResourceDef } from '../resources/definition.js';
import { resources } from '../resources/index.js';
import { adoptionsEndpoint } from '../routes/adoptions-routes.js';
import { convertEndpoint } from '../routes/convert-routes.js';
import { resourceEndpoints, type RouteDeps } from '../routes/resource-routes.js';
import { searchEndpoint } from '../routes/search-routes.js';
import type { Storage } from '../storage/storage.js';
import { adoptionParameters, adoptionSchemas } from './adoptions.js';
import { convertSchemas } from './convert-path.js';
import type { JsonObject } from './json-schema.js';
import { resourceParameters, sharedParameters } from './parameters.js';
import { pathItem } from './paths.js';
import { formatPaths, formatResponseComponents } from './format-paths.js';
import { headerComponents, responseComponents, withDeprecationHeaders } from './responses.js';
import { resourceSchemas, sharedSchemas, type ResourceLookup } from './component-schemas.js';
import { searchParameters, searchSchemas } from './search.js';
import { securitySchemes } from './security.js';

/** The endpoints are only described here, never run, so they get dependencies that refuse every use. */
function refusing<T>(): T {
  return new Proxy(
    {},
    {
      get() {
        throw new Error('The OpenAPI document describes operations and never runs them.');
      },
    },
  ) as T;
}

/** Each configuration's served documents, by version. */
const served = new WeakMap<Config, Map<Version, JsonObject>>();

/**
 * The document of `version` the service serves (every resource), built on first use and then kept: the definitions do
 * not change while it runs. {portal}/openapi/v<N>.json and the API reference both take it from here.
 */
export function servedDocument(config: Config, version: Version): JsonObject {
  let documents = served.get(config);
  if (!documents) served.set(config, (documents = new Map()));
  let document = documents.get(version);
  if (!document) documents.set(version, (document = buildDocument(config, version)));
  return document;
}

/** The document of `version`; `defs` defaults to every resource the service serves. */
export function buildDocument(config: Config, version: Version, defs: readonly ResourceDef[] = resources): JsonObject {
  const byName = new Map(defs.map((def) => [def.name, def]));
  const lookup: ResourceLookup = (name) => byName.get(name);
  const paths: JsonObject = {};
  for (const endpoint of documentedEndpoints({ storage: refusing<Storage>(), config }, defs)) {
    for (const [path, item] of Object.entries(pathItem(endpoint, version, defs)))
      Object.assign(paths, formatPaths(path, item));
  }
  let responses = { ...responseComponents(), ...formatResponseComponents(responseComponents()) };
  if (version < CURRENT_VERSION) {
    markDeprecated(paths);
    responses = Object.fromEntries(
      Object.entries(responses).map(([name, response]) => [name, withDeprecationHeaders(response)]),
    );
  }
  return {
    openapi: '3.1.1',
    info: {
      title: 'Dog Registry Service',
      version: `v${version}`,
      summary: 'A registry of dogs and the people and things around them.',
      description: describeVersion(config, version),
      // No licence file: the service is private (package.json), so its document says so by an SPDX reference.
      license: { name: 'Proprietary: all rights reserved', identifier: 'LicenseRef-Proprietary' },
    },
    externalDocs: { description: 'The developer portal: sign-up, error codes, versions.', url: config.portalUrl },
    servers: [{ url: `${config.publicUrl}/v${version}`, description: `Version ${version} of the API` }],
    tags: [
      ...defs.map((def) => ({ name: def.name, description: def.description })),
      { name: 'search', description: 'One search over every resource.' },
      { name: 'adoptions', description: 'Dogs up for adoption: the one operation open to anyone.' },
      { name: 'conversion', description: 'Currency conversion with the ECB euro reference rates.' },
    ],
    paths,
    components: {
      schemas: Object.assign(
        sharedSchemas(config.portalUrl),
        ...defs.map((def) => resourceSchemas(def, lookup)),
        searchSchemas(defs),
        adoptionSchemas(),
        convertSchemas(),
      ),
      parameters: Object.assign(
        sharedParameters(),
        ...defs.map(resourceParameters),
        searchParameters(defs),
        adoptionParameters(),
      ),
      responses,
      headers: headerComponents(version),
      securitySchemes: securitySchemes(config),
    },
  };
}

/**
 * The endpoints app.ts registers, made by the same factories: the resources' (own and nested
 * paths), then the service-wide ones. Each operation's descriptor says how to describe it.
 */
function documentedEndpoints(deps: RouteDeps, defs: readonly ResourceDef[]): Endpoint[] {
  return [
    ...defs.flatMap((def) => resourceEndpoints(def, deps)),
    searchEndpoint(deps),
    adoptionsEndpoint(deps),
    convertEndpoint(refusing<RateTable>()),
  ];
}

/**
 * Every operation of an earlier version is deprecated (OpenAPI's `deprecated`), and its answers list the Deprecation,
 * Sunset and Link headers that v1 answers carry once V1_SUNSET is set.
 */
function markDeprecated(paths: JsonObject): void {
  for (const item of Object.values(paths) as JsonObject[]) {
    for (const [key, operation] of Object.entries(item)) {
      // A suffix path's description is text, not an operation.
      if (key === 'parameters' || key === 'description') continue;
      const responses = Object.entries((operation as JsonObject).responses as Record<string, JsonObject>);
      item[key] = {
        ...(operation as JsonObject),
        deprecated: true,
        responses: Object.fromEntries(responses.map(([status, answer]) => [status, withDeprecationHeaders(answer)])),
      };
    }
  }
}

function describeVersion(config: Config, version: Version): string {
  const status =
    version === CURRENT_VERSION
      ? `v${version} is the current version: a creation answers 201 Created with the new item's URL in Location.`
      : `v${version} is an earlier version, deprecated since ${config.v1Deprecated}, that stays available: a ` +
        `creation answers 200. v${CURRENT_VERSION} is current; ` +
        `moving to it means accepting 201 Created (with Location) where v${version} answers 200. See ` +
        `${config.portalUrl}/versions.`;
  const sunset =
    version < CURRENT_VERSION && config.v1Sunset
      ? ` v${version} is retired on ${config.v1Sunset} (00:00 UTC); until then every v${version} answer carries ` +
        `Deprecation, Sunset and a Link with rel="deprecation".`
      : '';
  return [
    `The Dog Registry Service keeps dogs, their owners, veterinarians and food. ${status}${sunset}`,
    'Answers are JSON by default and XML on request: end the path with .json or .xml (/dogs.xml, ' +
      '/dogs/{id}.xml, in any case: .XML is .xml), or send Accept: application/xml.',
    'Every path that answers GET answers HEAD too (the Allow header lists it): as HTTP defines HEAD (RFC 9110 ' +
      '§9.3.2), with the statuses and headers GET would send and no body, so this document lists only the GET.',
    `Every operation needs an OAuth 2.0 access token (client credentials, from ${config.publicUrl}/oauth2/token; ` +
      `see the oauth2 security scheme) ` +
      'except GET /adoptions, which is open to anyone.',
    `Every error has a plain-language message, an integer code and a more_info link to ` +
      `${config.portalUrl}/errors/{code}.`,
    'Clients that cannot send PUT or DELETE, or read statuses other than 200, can use the method and suppress_response_codes parameters.',
  ].join('\n\n');
}
