// The endpoints of a resource, generated from its definition: collection, count, item, and nested paths.
import type { Endpoint } from '../http/endpoint.js';
import type { ResourceDef } from '../resources/definition.js';
import { resourceByName } from '../resources/index.js';
import {
  countOperation,
  createOperation,
  listOperation,
  readOperation,
  removeOperation,
  updateOperation,
  type RouteDeps,
} from './resource-operations.js';
import { nestedCreates } from './resource-descriptors.js';

export type { RouteDeps } from './resource-operations.js';

export function resourceEndpoints(def: ResourceDef, deps: RouteDeps): Endpoint[] {
  const endpoints: Endpoint[] = [
    { path: `/${def.name}`, operations: { GET: listOperation(def, deps), POST: createOperation(def, deps) } },
    { path: `/${def.name}/count`, operations: { GET: countOperation(def, deps) } },
    {
      path: `/${def.name}/:id`,
      operations: {
        GET: readOperation(def, deps),
        PUT: updateOperation(def, deps),
        DELETE: removeOperation(def, deps),
      },
    },
  ];
  for (const [name, association] of Object.entries(def.associations)) {
    if (association.kind !== 'many' || !association.nestedPath) continue;
    const target = resourceByName(association.target)!;
    const nesting = { parent: def, name, association };
    const owning = nestedCreates(nesting);
    endpoints.push({
      path: `/${def.name}/:id/${name}`,
      operations: {
        GET: listOperation(target, deps, nesting),
        ...(owning ? { POST: createOperation(target, deps, nesting) } : {}),
      },
    });
    if (owning)
      endpoints.push({
        path: `/${def.name}/:id/${name}/search`,
        operations: { GET: listOperation(target, deps, nesting, true) },
      });
  }
  return endpoints;
}
