// The API surface: every endpoint under each version (/v1, /v2), and the API's own 404 for a path under a version.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessControl } from '../auth/access.js';
import type { Config } from '../config.js';
import type { RateTable } from '../conversion/ecb-rates.js';
import { allowAnyOrigin } from '../http/cors.js';
import { registerEndpoint } from '../http/endpoint.js';
import { routeNotFoundError, VERSIONS } from '../http/versions.js';
import { resources } from '../resources/index.js';
import { adoptionsEndpoint } from '../routes/adoptions-routes.js';
import { convertEndpoint } from '../routes/convert-routes.js';
import { resourceEndpoints } from '../routes/resource-routes.js';
import { searchEndpoint } from '../routes/search-routes.js';
import type { Storage } from '../storage/storage.js';

export interface ApiSurfaceOptions {
  readonly config: Config;
  readonly storage: Storage;
  readonly access: AccessControl;
  readonly rates: RateTable;
}

export async function apiSurface(
  api: FastifyInstance,
  { config, storage, access, rates }: ApiSurfaceOptions,
): Promise<void> {
  const endpoints = [
    ...resources.flatMap((def) => resourceEndpoints(def, { storage, config })),
    searchEndpoint({ storage, config }),
    adoptionsEndpoint({ storage, config }),
    convertEndpoint(rates),
  ];
  for (const endpoint of endpoints) registerEndpoint(api, endpoint, { storage, access });

  // A prefix per version holds only its 404 answer: Fastify picks a not-found handler by prefix,
  // so /v1/cats is the API's 1002 while /portal/cats is the portal's page.
  for (const version of VERSIONS) {
    await api.register(
      async (under) => {
        under.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
          allowAnyOrigin(reply);
          throw routeNotFoundError(request.url.split('?')[0] ?? '/', version);
        });
      },
      { prefix: `/v${version}` },
    );
  }
}
