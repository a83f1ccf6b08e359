import { test, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { Statements } from '../../src/storage/sqlite/statements.js';

function statements(t: TestContext, bound?: number): Statements {
  const db = new Database(':memory:');
  t.after(() => db.close());
  return new Statements(db, bound);
}

test('a statement is prepared once per text and mode, and keeps its mode', (t) => {
  const cache = statements(t);
  assert.equal(cache.get('SELECT 1 AS n'), cache.get('SELECT 1 AS n'));
  assert.deepEqual(cache.get('SELECT 1 AS n').get(), { n: 1 });
  assert.deepEqual(cache.raw('SELECT 1 AS n').get(), [1]);
  assert.equal(cache.pluck('SELECT 1 AS n').get(), 1);
  assert.deepEqual(
    cache.get('SELECT 1 AS n').get(),
    { n: 1 },
    "the other modes left the shared text's statement as it was",
  );
  assert.equal(cache.count, 6);
});

test('past its bound, the cache drops its oldest statement and prepares it again when asked', (t) => {
  const cache = statements(t, 2);
  const first = cache.pluck('SELECT 1');
  cache.pluck('SELECT 2');
  assert.equal(cache.pluck('SELECT 1'), first, 'within the bound');
  cache.pluck('SELECT 3');
  const again = cache.pluck('SELECT 1');
  assert.notEqual(again, first, 'the oldest was dropped when a third text came');
  assert.equal(again.get(), 1);
});
