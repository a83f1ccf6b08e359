import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount } from '../helper.js';

test('a client over RATE_LIMIT_PER_MINUTE gets a 403 with Retry-After; answers carry RateLimit headers', async (t) => {
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '3' });
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await api.request({ url: '/v1/dogs' }));
  assert.deepEqual(
    answers.map((answer) => answer.statusCode),
    [200, 200, 200, 403],
  );
  assert.deepEqual(
    answers.map((answer) => answer.headers['ratelimit-remaining']),
    ['2', '1', '0', '0'],
  );
  for (const answer of answers) {
    assert.equal(answer.headers['ratelimit-limit'], '3');
    assert.ok(Number(answer.headers['ratelimit-reset']) >= 1 && Number(answer.headers['ratelimit-reset']) <= 60);
  }
  const over = answers[3]!;
  assert.equal(over.json().code, 5003);
  assert.ok(Number(over.headers['retry-after']) >= 1);
  const other = await newAccount(api.app, api.storage);
  assert.equal(
    (await api.request({ url: '/v1/dogs', token: other.token })).statusCode,
    200,
    'each client has its own counter',
  );
});

test('the open operation is limited per IP by RATE_LIMIT_OPEN_PER_MINUTE', async (t) => {
  const api = await build(t, { RATE_LIMIT_OPEN_PER_MINUTE: '2' });
  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await api.request({ url: '/v1/adoptions', token: null })).statusCode);
  assert.deepEqual(statuses, [200, 200, 403]);
});

test('behind a trusted proxy (TRUST_PROXY), the open operation is limited per forwarded address', async (t) => {
  // app.inject's requests come from 127.0.0.1, which plays the proxy here.
  const trusting = await build(t, { RATE_LIMIT_OPEN_PER_MINUTE: '1', TRUST_PROXY: '127.0.0.1' });
  const from = (address: string) =>
    trusting.request({ url: '/v1/adoptions', token: null, headers: { 'x-forwarded-for': address } });
  assert.equal((await from('203.0.113.7')).statusCode, 200);
  assert.equal((await from('198.51.100.9')).statusCode, 200, 'another client behind the proxy has its own counter');
  assert.equal((await from('203.0.113.7')).statusCode, 403, 'the first client has used its one request');
  // A client cannot pick its own address by sending the header to a service that trusts no proxy.
  const direct = await build(t, { RATE_LIMIT_OPEN_PER_MINUTE: '1' });
  const headers = (address: string) => ({ url: '/v1/adoptions', token: null, headers: { 'x-forwarded-for': address } });
  assert.equal((await direct.request(headers('203.0.113.7'))).statusCode, 200);
  assert.equal(
    (await direct.request(headers('198.51.100.9'))).statusCode,
    403,
    'X-Forwarded-For is ignored without TRUST_PROXY',
  );
});

test('a limit of 0 turns it off: no RateLimit headers', async (t) => {
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '0' });
  const response = await api.request({ url: '/v1/dogs' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['ratelimit-limit'], undefined);
});
