// The foods resource: a dog food product, with the dogs that eat it.
import type { ResourceDef } from './definition.js';
import { DOG_FOODS, linkFrom } from './link-tables.js';

export const foods: ResourceDef = {
  name: 'foods',
  singular: 'food',
  description: 'A dog food.',
  fields: {
    name: { kind: 'text', required: true, searchable: true, description: 'Name of the food.', example: 'Puppy Chow' },
    brand: { kind: 'text', searchable: true, description: 'Brand of the food.', example: 'Purina' },
  },
  filters: { brand: 'brand' },
  associations: {
    dogs: { kind: 'many', target: 'dogs', link: linkFrom(DOG_FOODS, 'foods'), nestedPath: true },
  },
};
