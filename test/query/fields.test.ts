import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFields, type FieldNode } from '../../src/query/fields.js';

const accepted: Array<[string, FieldNode[]]> = [
  ['name', [{ name: 'name' }]],
  ['name,furColor', [{ name: 'name' }, { name: 'furColor' }]],
  [' name , id ', [{ name: 'name' }, { name: 'id' }]],
  ['name,dogs(name)', [{ name: 'name' }, { name: 'dogs', children: [{ name: 'name' }] }]],
  [
    'dogs(name,foods(brand))',
    [{ name: 'dogs', children: [{ name: 'name' }, { name: 'foods', children: [{ name: 'brand' }] }] }],
  ],
  [
    'a(b(c(d(e))))',
    [
      {
        name: 'a',
        children: [{ name: 'b', children: [{ name: 'c', children: [{ name: 'd', children: [{ name: 'e' }] }] }] }],
      },
    ],
  ],
  ['name,name', [{ name: 'name' }]],
  ['dogs(name),dogs(id)', [{ name: 'dogs', children: [{ name: 'name' }, { name: 'id' }] }]],
];

for (const [text, nodes] of accepted) {
  test(`fields "${text}" parses into its selection tree`, () => {
    assert.deepEqual(parseFields(text), { ok: true, nodes });
  });
}

const rejected: Array<[string, 'syntax' | 'depth', string[], RegExp]> = [
  ['', 'syntax', [], /expected a field name at character 1 but found the end/],
  ['name,', 'syntax', [], /expected a field name at character 6/],
  [',name', 'syntax', [], /expected a field name at character 1 but found ","/],
  ['name)', 'syntax', [], /unexpected "\)" at character 5/],
  ['dogs(name', 'syntax', ['dogs'], /expected "," or "\)" at character 10 but found the end/],
  ['dogs()', 'syntax', ['dogs'], /expected a field name at character 6 but found "\)"/],
  ['dogs(foods(x!))', 'syntax', ['dogs', 'foods'], /expected "," or "\)" at character 13 but found "!"/],
  ['na-me', 'syntax', [], /unexpected "-" at character 3/],
  ['a(b(c(d(e(f)))))', 'depth', ['a', 'b', 'c', 'd'], /more than 4 levels deep at "e\("/],
];

for (const [text, kind, path, problem] of rejected) {
  test(`fields "${text}" is rejected as a ${kind} error at level [${path.join('/')}]`, () => {
    const result = parseFields(text);
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.kind, kind);
    assert.deepEqual(result.path, path);
    assert.match(result.problem, problem);
  });
}
