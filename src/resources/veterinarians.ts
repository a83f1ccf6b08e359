// The veterinarians resource: a vet at a clinic, with the dogs it treats and the owners who use it.
import type { ResourceDef } from './definition.js';
import { linkFrom, OWNER_VETERINARIANS } from './link-tables.js';

export const veterinarians: ResourceDef = {
  name: 'veterinarians',
  singular: 'veterinarian',
  description: 'A veterinarian.',
  fields: {
    name: {
      kind: 'text',
      required: true,
      searchable: true,
      description: 'Name of the veterinarian.',
      example: 'Dr. Lund',
    },
    clinic: {
      kind: 'text',
      searchable: true,
      description: 'The clinic the veterinarian works at.',
      example: 'Oslo Dyreklinikk',
    },
    location: { kind: 'text', searchable: true, description: 'Where the clinic is.', example: 'Oslo' },
  },
  filters: { clinic: 'clinic', location: 'location' },
  associations: {
    dogs: { kind: 'many', target: 'dogs', reverseField: 'veterinarianId', nestedPath: true },
    owners: { kind: 'many', target: 'owners', link: linkFrom(OWNER_VETERINARIANS, 'veterinarians') },
  },
};
