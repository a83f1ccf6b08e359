// The foods resource: a dog food product, with the dogs that eat it.
import type { ResourceDef } from './definition.js';

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
    dogs: { kind: 'many', target: 'dogs', link: { table: 'dog_foods', selfColumn: 'food_id', targetColumn: 'dog_id' }, nestedPath: true },
  },
};
