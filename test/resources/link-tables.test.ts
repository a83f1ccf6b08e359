import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { LinkRef } from '../../src/resources/definition.js';
import { dogs } from '../../src/resources/dogs.js';
import { foods } from '../../src/resources/foods.js';
import { resourceByName, resources } from '../../src/resources/index.js';
import { DOG_FOODS, linkFrom, linkTables } from '../../src/resources/link-tables.js';

test('each side of a link table sees its own column as selfColumn and the other side as targetColumn', () => {
  assert.deepEqual(linkFrom(DOG_FOODS, 'dogs'), { table: 'dog_foods', selfColumn: 'dog_id', targetColumn: 'food_id' });
  assert.deepEqual(linkFrom(DOG_FOODS, 'foods'), { table: 'dog_foods', selfColumn: 'food_id', targetColumn: 'dog_id' });
  assert.throws(() => linkFrom(DOG_FOODS, 'owners'), /dog_foods joins dogs and foods, not owners/);
});

test('a refs field and the association reading the same set share one view, derived from the declaration', () => {
  assert.equal(dogs.fields.foodIds!.link, linkFrom(DOG_FOODS, 'dogs'));
  const association = dogs.associations.foods!;
  assert.ok('link' in association && association.link === linkFrom(DOG_FOODS, 'dogs'));
  const back = foods.associations.dogs!;
  assert.ok('link' in back && back.link === linkFrom(DOG_FOODS, 'foods'));
});

test('every link a definition uses is a declared link table seen from that resource, towards the resource it names', () => {
  const used: Array<{ owner: string; target: string; link: LinkRef }> = [];
  for (const def of resources) {
    for (const field of Object.values(def.fields))
      if (field.link) used.push({ owner: def.name, target: field.ref!, link: field.link });
    for (const association of Object.values(def.associations)) {
      if ('link' in association) used.push({ owner: def.name, target: association.target, link: association.link });
    }
  }
  assert.ok(used.length >= 6, `the six views of the two link tables are seen (${used.length})`);
  for (const { owner, target, link } of used) {
    const declared = linkTables.find((candidate) => candidate.table === link.table);
    assert.ok(declared, `${link.table} is declared in link-tables.ts`);
    assert.equal(link, linkFrom(declared, owner), `${owner} reads ${link.table} from its own side`);
    assert.ok(resourceByName(target), `${target} is a resource`);
    assert.ok(
      declared.sides.some((side) => side.resource === target && side.column === link.targetColumn),
      `${link.table} leads to ${target}`,
    );
  }
});
