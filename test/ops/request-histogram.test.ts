import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { RequestHistogram } from '../../src/routes/request-histogram.js';

function histogram(): { registry: Registry; metric: RequestHistogram } {
  const registry = new Registry();
  return { registry, metric: new RequestHistogram('req_seconds', 'Request time.', [0.01, 0.1], registry) };
}

test('buckets are cumulative, a value on a bound counts in that bucket (le), and sum and count add up', async () => {
  const { registry, metric } = histogram();
  const observe = metric.observerFor('/v1/dogs');
  for (const seconds of [0.005, 0.01, 0.05, 0.5]) observe('GET', 200, seconds);
  const text = await registry.metrics();
  assert.match(text, /^# TYPE req_seconds histogram$/m);
  assert.match(text, /^req_seconds_bucket\{le="0\.01",method="GET",route="\/v1\/dogs",status="200"\} 2$/m);
  assert.match(text, /^req_seconds_bucket\{le="0\.1",method="GET",route="\/v1\/dogs",status="200"\} 3$/m);
  assert.match(text, /^req_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/dogs",status="200"\} 4$/m);
  assert.match(text, /^req_seconds_sum\{method="GET",route="\/v1\/dogs",status="200"\} 0\.565$/m);
  assert.match(text, /^req_seconds_count\{method="GET",route="\/v1\/dogs",status="200"\} 4$/m);
});

test('each route, method and status is its own series', async () => {
  const { registry, metric } = histogram();
  metric.observerFor('/v1/dogs')('GET', 200, 0.001);
  metric.observerFor('/v1/dogs')('GET', 404, 0.001);
  metric.observerFor('/v1/owners')('POST', 200, 0.001);
  const text = await registry.metrics();
  for (const labels of [
    'method="GET",route="/v1/dogs",status="200"',
    'method="GET",route="/v1/dogs",status="404"',
    'method="POST",route="/v1/owners",status="200"',
  ]) {
    assert.ok(text.includes(`req_seconds_count{${labels}} 1`), labels);
  }
});

test('resetting the registry zeroes every series', async () => {
  const { registry, metric } = histogram();
  metric.observerFor('/v1/dogs')('GET', 200, 0.2);
  registry.resetMetrics();
  const text = await registry.metrics();
  assert.match(text, /^req_seconds_count\{method="GET",route="\/v1\/dogs",status="200"\} 0$/m);
  assert.match(text, /^req_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/dogs",status="200"\} 0$/m);
});
