import { test } from 'node:test';
import assert from 'node:assert/strict';
import { answersLeave } from '../../src/http/answer-batch.js';

test('answers ready in one turn of the event loop wait for one end of turn, after the work already queued', async () => {
  const order: string[] = [];
  const first = answersLeave();
  const second = answersLeave();
  assert.equal(first, second, 'one shared end of turn');
  void first.then(() => order.push('answers'));
  // Work of the same turn: microtasks (what a request handler awaits) run before the answers leave.
  void Promise.resolve()
    .then(() => Promise.resolve())
    .then(() => order.push('handler'));
  await new Promise((resolve) => setImmediate(resolve));
  await first;
  assert.deepEqual(order, ['handler', 'answers']);
});

test('the next turn gets its own end of turn', async () => {
  const first = answersLeave();
  await first;
  const next = answersLeave();
  assert.notEqual(next, first);
  let left = false;
  void next.then(() => {
    left = true;
  });
  await Promise.resolve();
  assert.equal(left, false, 'not before the end of that turn');
  await next;
  assert.equal(left, true);
});
