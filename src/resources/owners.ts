// The owners resource: a person or organisation owning dogs, and the veterinarians they use.
import type { ResourceDef } from './definition.js';
import { linkFrom, OWNER_VETERINARIANS } from './link-tables.js';

const VETERINARIANS_LINK = linkFrom(OWNER_VETERINARIANS, 'owners');

export const owners: ResourceDef = {
  name: 'owners',
  singular: 'owner',
  description: 'An owner of dogs.',
  fields: {
    name: { kind: 'text', required: true, searchable: true, description: 'Name of the owner.', example: 'Ann Berg' },
    email: { kind: 'email', searchable: true, description: 'Email address of the owner.', example: 'ann@example.com' },
    location: { kind: 'text', searchable: true, description: 'Where the owner lives.', example: 'Oslo' },
    veterinarianIds: {
      kind: 'refs',
      ref: 'veterinarians',
      link: VETERINARIANS_LINK,
      description:
        "Write-only: the ids of the owner's veterinarians; a PUT replaces the whole set. Read them with " +
        'fields=veterinarians(id) or /owners/{id}/veterinarians.',
    },
  },
  filters: { location: 'location' },
  associations: {
    dogs: { kind: 'many', target: 'dogs', reverseField: 'ownerId', nestedPath: true, nestedCreate: true },
    veterinarians: { kind: 'many', target: 'veterinarians', link: VETERINARIANS_LINK, nestedPath: true },
  },
};
