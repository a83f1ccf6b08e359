import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NowAndThen } from '../src/now-and-then.js';

test('NowAndThen says yes the first time, then at most once per interval, and again after reset', () => {
  let time = 0;
  const sweeps = new NowAndThen(1000, () => time);
  assert.equal(sweeps.due(), true, 'the first call is due');
  time = 999;
  assert.equal(sweeps.due(), false);
  time = 1000;
  assert.equal(sweeps.due(), true, 'a whole interval after the last yes');
  assert.equal(sweeps.due(), false, 'a yes starts a new interval');
  assert.equal(sweeps.due(1500), false, 'a time given is used instead of the clock');
  assert.equal(sweeps.due(2000), true);
  sweeps.reset();
  assert.equal(sweeps.due(2001), true, 'reset makes the next call due');
});
