import { test } from 'node:test';
import assert from 'node:assert/strict';
import { perDefinition } from '../../src/resources/per-definition.js';

test('a value per definition is built once per key and kept', () => {
  const built: string[] = [];
  const describe = perDefinition((def: { name: string }, suffix: string) => {
    built.push(def.name);
    return { text: `${def.name}${suffix}` };
  });
  const dogs = { name: 'dogs' };
  const owners = { name: 'owners' };
  const first = describe(dogs, '!');
  assert.equal(describe(dogs, '!'), first, 'the same value, not a new one');
  assert.deepEqual(describe(owners, '?'), { text: 'owners?' });
  assert.deepEqual(built, ['dogs', 'owners']);
});
