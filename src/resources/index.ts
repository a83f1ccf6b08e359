// The registry of resource definitions: the one list routes, storage, migrations and docs are generated from.
import type { ResourceDef } from './definition.js';
import { dogs } from './dogs.js';
import { foods } from './foods.js';
import { owners } from './owners.js';
import { veterinarians } from './veterinarians.js';

export const resources: readonly ResourceDef[] = [dogs, owners, veterinarians, foods];

const byName = new Map(resources.map((def) => [def.name, def]));

export function resourceByName(name: string): ResourceDef | undefined {
  return byName.get(name);
}
