// The dogs resource: a dog, its registry state, and its links to an owner, a veterinarian and foods.
import type { ResourceDef } from './definition.js';
import { DOG_FOODS, linkFrom } from './link-tables.js';

const DOG_STATES = ['registered', 'adoptable', 'adopted', 'lost'] as const;

const FOODS_LINK = linkFrom(DOG_FOODS, 'dogs');

export const dogs: ResourceDef = {
  name: 'dogs',
  singular: 'dog',
  description: 'A dog in the registry.',
  fields: {
    name: { kind: 'text', required: true, searchable: true, description: 'Name of the dog.', example: 'Rex' },
    furColor: { kind: 'text', searchable: true, description: 'Colour of the fur.', example: 'brown' },
    state: {
      kind: 'enum',
      values: DOG_STATES,
      default: 'registered',
      description: 'Registry status of the dog.',
      example: 'adoptable',
    },
    location: { kind: 'text', searchable: true, description: 'Where the dog lives.', example: 'Oslo' },
    ownerId: { kind: 'ref', ref: 'owners', description: "Id of the dog's owner, or null." },
    veterinarianId: { kind: 'ref', ref: 'veterinarians', description: "Id of the dog's veterinarian, or null." },
    foodIds: {
      kind: 'refs',
      ref: 'foods',
      link: FOODS_LINK,
      description:
        'Write-only: the ids of the foods the dog eats; a PUT replaces the whole set. Read them with ' +
        'fields=foods(id) or /dogs/{id}/foods.',
    },
  },
  filters: { color: 'furColor', state: 'state', location: 'location' },
  associations: {
    owner: { kind: 'one', target: 'owners', field: 'ownerId' },
    veterinarian: { kind: 'one', target: 'veterinarians', field: 'veterinarianId' },
    foods: { kind: 'many', target: 'foods', link: FOODS_LINK, nestedPath: true },
  },
};
