import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, newAccount } from '../helper.js';

test('a client over RATE_LIMIT_PER_MINUTE gets a 403 with Retry-After; answers carry RateLimit headers', async (t) => {
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '3' });
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await api.request({ url: '/v1/dogs' }));
  assert.deepEqual(answers.map((answer) => answer.statusCode), [200, 200, 200, 403]);
  assert.deepEqual(answers.map((answer) => answer.headers['ratelimit-remaining']), ['2', '1', '0', '0']);
  for (const answer of answers) {
    assert.equal(answer.headers['ratelimit-limit'], '3');
    assert.ok(Number(answer.headers['ratelimit-reset']) >= 1 && Number(answer.headers['ratelimit-reset']) <= 60);
  }
  const over = answers[3]!;
  assert.equal(over.json().code, 5003);
  assert.ok(Number(over.headers['retry-after']) >= 1);
  const other = await newAccount(api.app, api.storage);
  assert.equal((await api.request({ url: '/v1/dogs', token: other.token })).statusCode, 200, 'each client has its own counter');
});

test('the open operation is limited per IP by RATE_LIMIT_OPEN_PER_MINUTE', async (t) => {
  const api = await build(t, { RATE_LIMIT_OPEN_PER_MINUTE: '2' });
  const statuses = [];
  for (let i = 0; i < 3; i += 1) statuses.push((await api.request({ url: '/v1/adoptions', token: null })).statusCode);
  assert.deepEqual(statuses, [200, 200, 403]);
});

test('a limit of 0 turns it off: no RateLimit headers', async (t) => {
  const api = await build(t, { RATE_LIMIT_PER_MINUTE: '0' });
  const response = await api.request({ url: '/v1/dogs' });
  assert.equal(response.statusCode, 200);
  assert.equal(response.headers['ratelimit-limit'], undefined);
});
