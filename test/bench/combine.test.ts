// The bench's slices combine into one distribution: p50 and p99 are those of every request measured, not the
// median of the slices' own percentiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { combine, type WrkResult } from '../../bench/harness.js';

/** A slice of `requests` requests, `slow` of a thousand of them at `slowMs`, the rest at `fastMs`. */
function slice(requests: number, slow: number, slowMs = 50, fastMs = 5): WrkResult {
  const quantiles = Array.from({ length: 1000 }, (_, step) => (step >= 1000 - slow ? slowMs : fastMs));
  return { requests, seconds: 1, requestsPerSecond: requests, p50: fastMs, p99: NaN, failures: 0, quantiles };
}

test('the slices are weighed by their requests', () => {
  const combined = combine([slice(9000, 0), slice(1000, 1000)]);
  assert.equal(combined.requests, 10_000);
  assert.equal(combined.requestsPerSecond, 5000);
  assert.equal(combined.p50, 5, 'nine requests in ten at 5 ms');
  assert.equal(combined.p99, 50, 'one in ten at 50 ms');
});

test("p99 is that of every request: one slice's slow hundredth is half a hundredth of two", () => {
  const slow = slice(1000, 15);
  assert.equal(combine([slow]).p99, 50, 'alone, its 1.5% at 50 ms make its p99');
  assert.equal(combine([slow, slice(1000, 0)]).p99, 5, 'with an even slice, 0.75% are over p99');
  assert.equal(combine([slow, slice(1000, 5)]).p99, 50, 'with 0.5% more, 1% are');
});

test('a slice that answered nothing adds no latency, and no answer at all has none', () => {
  const silent: WrkResult = { ...slice(0, 0), quantiles: [] };
  assert.equal(combine([silent, slice(1000, 0)]).p99, 5);
  const none = combine([silent]);
  assert.equal(none.requests, 0);
  assert.ok(Number.isNaN(none.p99) && Number.isNaN(none.p50));
});
