// /metrics: its token (METRICS_TOKEN), and what it counts: requests by operation, version and status, tokens, signups,
// searches by where their answers came from.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build, createItem, type TestApp } from '../helper.js';

const METRICS_TOKEN = 'metrics-secret-0123456789';

/** The value of one sample line (`name{labels} value`) of /metrics, or undefined when there is none. */
async function sample(api: TestApp, series: string): Promise<number | undefined> {
  const response = await api.request({ url: '/metrics', token: null });
  assert.equal(response.statusCode, 200);
  const line = response.body.split('\n').find((entry) => entry.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

test('without METRICS_TOKEN, /metrics is open', async (t) => {
  const api = await build(t);
  const response = await api.request({ url: '/metrics', token: null });
  assert.equal(response.statusCode, 200);
  assert.match(response.body, /^# TYPE http_requests_total counter$/m);
  assert.match(response.body, /^# TYPE oauth_tokens_issued_total counter$/m);
  assert.match(response.body, /^# TYPE portal_signups_total counter$/m);
});

test('with METRICS_TOKEN, /metrics needs it as a bearer token: missing or wrong is a 401 (5007)', async (t) => {
  const api = await build(t, { METRICS_TOKEN });
  const cases: Array<[string, Record<string, string>]> = [
    ['missing', {}],
    ['wrong', { authorization: 'Bearer metrics-secret-0123456780' }],
    ['a prefix of it', { authorization: 'Bearer metrics-secret' }],
    ['not a bearer token', { authorization: `Basic ${METRICS_TOKEN}` }],
    ['an API access token', { authorization: `Bearer ${api.credentials.token}` }],
  ];
  for (const [name, headers] of cases) {
    const response = await api.request({ url: '/metrics', token: null, headers });
    assert.equal(response.statusCode, 401, name);
    assert.equal(response.headers['www-authenticate'], 'Bearer realm="metrics"', name);
    assert.ok(response.headers['x-request-id'], name);
    const body = response.json();
    assert.equal(body.code, 5007, name);
    assert.match(body.message, /METRICS_TOKEN/, name);
    assert.doesNotMatch(response.body, /process_cpu|http_requests_total/, name);
  }
  // The scheme in any case, as the API takes it (RFC 9110 §11.1).
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    const right = await api.request({
      url: '/metrics',
      token: null,
      headers: { authorization: `${scheme} ${METRICS_TOKEN}` },
    });
    assert.equal(right.statusCode, 200, scheme);
    assert.match(right.body, /^# HELP process_cpu_user_seconds_total /m);
    assert.match(right.body, /^# TYPE http_request_duration_seconds histogram$/m);
  }
});

test('METRICS_TOKEN must be 16 or more visible characters', async (t) => {
  await assert.rejects(build(t, { METRICS_TOKEN: 'short' }), /METRICS_TOKEN must be a secret of at least 16/);
  await assert.rejects(build(t, { METRICS_TOKEN: 'has a space in the middle' }), /METRICS_TOKEN must be/);
});

test('http_requests_total counts by operation (overrides as the operation they name), version and status', async (t) => {
  const api = await build(t);
  assert.equal((await api.request({ url: '/v2/dogs' })).statusCode, 200);
  assert.equal((await api.request({ url: '/v2/dogs' })).statusCode, 200);
  assert.equal((await api.request({ url: '/v1/dogs/no-such-dog' })).statusCode, 404);
  const owner = await createItem(api, 'owners', { name: 'Ann' });
  const nested = await api.request({ method: 'POST', url: `/v2/owners/${owner.id}/dogs`, json: { name: 'Rex' } });
  assert.equal(nested.statusCode, 201);
  const removed = await api.request({
    method: 'POST',
    url: `/v2/dogs/${nested.json().dog.id}`,
    headers: { 'x-http-method-override': 'DELETE' },
  });
  assert.equal(removed.statusCode, 200);
  assert.equal((await api.request({ url: '/v2/search?q=Rex' })).statusCode, 200);
  assert.equal((await api.request({ url: '/v2/adoptions', token: null })).statusCode, 200);
  assert.equal((await api.request({ method: 'PATCH', url: '/v2/dogs' })).statusCode, 400);
  assert.equal((await api.request({ url: '/nowhere' })).statusCode, 404);

  const count = (labels: string) => sample(api, `http_requests_total{${labels}}`);
  assert.equal(await count('operation="dogs.list",version="2",status="200"'), 2);
  assert.equal(await count('operation="dogs.read",version="1",status="404"'), 1);
  assert.equal(await count('operation="owners.create",version="1",status="200"'), 1);
  assert.equal(await count('operation="owners.dogs.create",version="2",status="201"'), 1);
  assert.equal(await count('operation="dogs.remove",version="2",status="200"'), 1);
  assert.equal(await count('operation="search",version="2",status="200"'), 1);
  assert.equal(await count('operation="adoptions",version="2",status="200"'), 1);
  assert.equal(await count('operation="unoffered",version="2",status="400"'), 1);
  assert.equal(await count('operation="unmatched",version="",status="404"'), 1);
  // Outside the API the route pattern names it; the /metrics calls above count themselves.
  assert.ok(((await count('operation="/metrics",version="",status="200"')) ?? 0) >= 9);
  assert.equal(await count('operation="dogs.update",version="2",status="200"'), undefined);
});

test('each series appears once, however many routes count under its labels (Prometheus drops a repeated one)', async (t) => {
  const api = await build(t);
  const preflight = { 'access-control-request-method': 'PUT', origin: 'https://viewer.example' };
  // Preflights and unoffered methods of three endpoints; an OPTIONS and a POST (no client: 401) of a path outside the API.
  for (const url of ['/v2/dogs', '/v2/dogs/abc', '/v2/search']) {
    assert.equal((await api.request({ method: 'OPTIONS', url, token: null, headers: preflight })).statusCode, 200);
    assert.equal((await api.request({ method: 'PATCH', url })).statusCode, 400);
  }
  await api.request({ method: 'OPTIONS', url: '/oauth2/token', token: null, headers: preflight });
  await api.request({ method: 'POST', url: '/oauth2/token', token: null, form: { grant_type: 'password' } });

  const body = (await api.request({ url: '/metrics', token: null })).body;
  const series = body.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
  const names = series.map((line) => line.slice(0, line.lastIndexOf(' ')));
  assert.deepEqual(
    names.filter((name, index) => names.indexOf(name) !== index),
    [],
    'no series is repeated',
  );
  const count = (labels: string) => sample(api, `http_requests_total{${labels}}`);
  assert.equal(await count('operation="preflight",version="2",status="200"'), 3);
  assert.equal(await count('operation="unoffered",version="2",status="400"'), 3);
  assert.equal(await count('operation="/oauth2/token",version="",status="200"'), 1);
  assert.equal(await count('operation="/oauth2/token",version="",status="401"'), 1);
  const duration = 'http_request_duration_seconds_count{method="OPTIONS",route="/oauth2/token",status="200"}';
  assert.equal(await sample(api, duration), 1);
});

test('oauth_tokens_issued_total and portal_signups_total count tokens issued and accounts created', async (t) => {
  const api = await build(t);
  assert.equal(await sample(api, 'portal_signups_total'), 0);
  const signup = await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: { email: 'dev@example.com', password: 'a long passphrase', appName: 'Shelter app' },
    headers: { accept: 'application/json' },
    token: null,
  });
  assert.equal(signup.statusCode, 200);
  const again = await api.request({
    method: 'POST',
    url: '/portal/signup',
    json: { email: 'dev@example.com', password: 'a long passphrase', appName: 'Shelter app' },
    headers: { accept: 'application/json' },
    token: null,
  });
  assert.equal(again.statusCode, 400, 'a refused sign-up is not counted');
  assert.equal(await sample(api, 'portal_signups_total'), 1);

  const { clientId, clientSecret } = signup.json().client;
  const form = { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret };
  assert.equal((await api.request({ method: 'POST', url: '/oauth2/token', token: null, form })).statusCode, 200);
  const wrong = { ...form, client_secret: 'not-the-secret' };
  assert.equal((await api.request({ method: 'POST', url: '/oauth2/token', token: null, form: wrong })).statusCode, 401);
  assert.equal(await sample(api, 'oauth_tokens_issued_total{grant="client_credentials"}'), 1);
});

test('search_answers_total counts the searches answered from kept answers and those read from the index', async (t) => {
  const api = await build(t);
  await createItem(api, 'dogs', { name: 'Rex' });
  for (const url of ['/v2/dogs?q=rex', '/v2/dogs?q=rex', '/v2/search?q=rex', '/v2/search?q=rex', '/v2/dogs?q=rex'])
    assert.equal((await api.request({ url })).statusCode, 200);
  assert.equal(await sample(api, 'search_answers_total{from="kept"}'), 3);
  assert.equal(await sample(api, 'search_answers_total{from="read"}'), 2);
  await createItem(api, 'dogs', { name: 'Rexy' });
  assert.equal((await api.request({ url: '/v2/dogs?q=rex' })).statusCode, 200);
  assert.equal(await sample(api, 'search_answers_total{from="read"}'), 3, 'a write since: read again');
});
