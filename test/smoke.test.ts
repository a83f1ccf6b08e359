import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from './helper.js';

test('a dog can be created and read back', async (t) => {
  const api = await build(t);
  const created = await api.request({ method: 'POST', url: '/v1/dogs', form: { name: 'Rex' } });
  assert.equal(created.statusCode, 200);
  const id = created.json().dog.id;
  const read = await api.request({ url: `/v1/dogs/${id}` });
  assert.equal(read.json().dog.name, 'Rex');
});
