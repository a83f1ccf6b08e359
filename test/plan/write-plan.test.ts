// The write plan, without a database: what a create, update and delete check, change and clear.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUpdate, deriveClearing, planCreate, planRemove, planUpdate } from '../../src/plan/write-plan.js';
import type { ResourceDef } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { resources } from '../../src/resources/index.js';
import { owners } from '../../src/resources/owners.js';
import { veterinarians } from '../../src/resources/veterinarians.js';

test('a delete clears every reference to the resource, derived from the ref and refs fields of every definition', () => {
  const cases: Array<[ResourceDef, object]> = [
    [dogs, { refColumns: [], linkRows: [{ table: 'dog_foods', column: 'dog_id' }] }],
    [
      owners,
      {
        refColumns: [{ table: 'dogs', column: 'owner_id' }],
        linkRows: [{ table: 'owner_veterinarians', column: 'owner_id' }],
      },
    ],
    [
      veterinarians,
      {
        refColumns: [{ table: 'dogs', column: 'veterinarian_id' }],
        linkRows: [{ table: 'owner_veterinarians', column: 'veterinarian_id' }],
      },
    ],
    [foods, { refColumns: [], linkRows: [{ table: 'dog_foods', column: 'food_id' }] }],
  ];
  for (const [def, clearing] of cases) {
    assert.deepEqual(deriveClearing(def, resources), clearing, def.name);
    assert.deepEqual(planRemove(def).clear, clearing, `${def.name}, as the backends get it`);
  }
});

test('a link table is found from the one refs field that writes it, whatever the associations say', () => {
  const toys: ResourceDef = {
    name: 'toys',
    singular: 'toy',
    description: 'A toy.',
    fields: {},
    filters: {},
    associations: {},
  };
  const kennels: ResourceDef = {
    name: 'kennels',
    singular: 'kennel',
    description: 'A kennel.',
    filters: {},
    associations: {},
    fields: {
      favouriteToyId: { kind: 'ref', ref: 'toys', description: 'One toy.' },
      toyIds: {
        kind: 'refs',
        ref: 'toys',
        link: { table: 'kennel_toys', selfColumn: 'kennel_id', targetColumn: 'toy_id' },
        description: 'Toys.',
      },
    },
  };
  assert.deepEqual(deriveClearing(toys, [kennels, toys]), {
    refColumns: [{ table: 'kennels', column: 'favourite_toy_id' }],
    linkRows: [{ table: 'kennel_toys', column: 'toy_id' }],
  });
  assert.deepEqual(deriveClearing(kennels, [kennels, toys]), {
    refColumns: [],
    linkRows: [{ table: 'kennel_toys', column: 'kennel_id' }],
  });
});

test('a create plans the new item, the references to check, the sets to link, and no answer without a key', () => {
  const plan = planCreate(dogs, { name: 'Rex', ownerId: 'o1', veterinarianId: null, foodIds: ['f1', 'f2'] });
  assert.match(plan.item.id!, /^[A-Za-z0-9_-]+$/);
  assert.equal(plan.item.state, 'registered', 'the default');
  assert.equal(plan.item.createdAt, plan.item.updatedAt);
  assert.deepEqual(plan.row, [
    plan.item.id,
    'Rex',
    null,
    'registered',
    null,
    'o1',
    null,
    plan.item.createdAt,
    plan.item.updatedAt,
  ]);
  assert.deepEqual(plan.checks, [
    { field: 'ownerId', target: 'owners', ids: ['o1'] },
    { field: 'foodIds', target: 'foods', ids: ['f1', 'f2'] },
  ]);
  assert.deepEqual(plan.links, [
    { table: 'dog_foods', selfColumn: 'dog_id', targetColumn: 'food_id', ids: ['f1', 'f2'] },
  ]);
  assert.equal(plan.answer, undefined);
});

test('with a claimed key, a create plans the answer made from its own new item, to commit with it', () => {
  const key = { clientId: 'c1', key: 'k1', fingerprint: 'fp' };
  const plan = planCreate(
    foods,
    { name: 'Chow' },
    { key, answerFor: (item) => JSON.stringify({ status: 201, id: item.id }) },
  );
  assert.deepEqual(plan.answer, { key, answer: JSON.stringify({ status: 201, id: plan.item.id }) });
});

test('an update changes only the fields given (sets aside) and updatedAt, and checks only the references given', () => {
  const plan = planUpdate(dogs, { name: 'Max', veterinarianId: 'v1', foodIds: [] });
  assert.deepEqual(plan.changed, ['name', 'veterinarianId', 'updatedAt']);
  assert.deepEqual(plan.checks, [{ field: 'veterinarianId', target: 'veterinarians', ids: ['v1'] }]);
  assert.deepEqual(
    plan.links,
    [{ table: 'dog_foods', selfColumn: 'dog_id', targetColumn: 'food_id', ids: [] }],
    'an empty set empties the links',
  );
  const current = {
    id: 'd1',
    name: 'Rex',
    furColor: 'brown',
    veterinarianId: null,
    updatedAt: '2020-01-01T00:00:00.000Z',
  };
  const updated = applyUpdate(plan, { ...current });
  assert.deepEqual(
    { ...updated, updatedAt: 'now' },
    { ...current, name: 'Max', veterinarianId: 'v1', updatedAt: 'now' },
  );
  assert.ok(updated.updatedAt! > current.updatedAt);
});
