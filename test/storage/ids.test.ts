import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ID_PATTERN, newId } from '../../src/storage/ids.js';

test('ids drawn from the shared random pool are 22 base64url characters and never repeat, across many draws', () => {
  const ids = Array.from({ length: 1000 }, () => newId());
  assert.equal(new Set(ids).size, ids.length);
  for (const id of ids) {
    assert.match(id, /^[A-Za-z0-9_-]{22}$/);
    assert.match(id, ID_PATTERN);
  }
});
