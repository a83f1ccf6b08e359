// The request log pages (SPEC §12): an app's requests newest first, its filters and pages, a request's details, and
// never another account's app or request.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { getPage } from './portal-helper.js';
import { call, developer, linkOf, shownIds, writeEntries } from './request-log-helper.js';

const LOG = (clientId: string) => `/portal/dashboard/apps/${clientId}/requests`;

test("an app's log lists its requests newest first, every column, the token masked, no-store", async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const listed = await call(api, ann, `/v2/dogs?limit=5&access_token=${ann.token}`, 'first-call');
  assert.equal(listed.statusCode, 200);
  const missing = await call(api, ann, '/v1/dogs/no-such-dog', 'second-call');
  assert.equal(missing.statusCode, 404);
  await api.app.requestRecorder.flush();

  const log = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.equal(log.statusCode, 200);
  assert.match(log.headers['content-type'] as string, /^text\/html/);
  assert.equal(log.headers['cache-control'], 'no-store');
  assert.match(log.headers['content-security-policy'] as string, /frame-ancestors 'none'/);
  assert.equal(log.headers['x-content-type-options'], 'nosniff');
  assert.ok(log.headers['referrer-policy']);
  assert.deepEqual(shownIds(log.body), ['second-call', 'first-call']);
  assert.ok(!log.body.includes(ann.token), 'the token is masked');
  assert.match(log.body, /<code>\/v2\/dogs\?limit=5&amp;access_token=\*\*\*<\/code>/);
  const code = (missing.json() as { code: number }).code;
  const row = new RegExp(
    '<tr><td data-label="Time"><time datetime="[^"]+Z">\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d</time></td>' +
      '<td data-label="Method">GET</td><td data-label="Path" class="path"><code>/v1/dogs/no-such-dog</code></td>' +
      '<td data-label="Version">v1</td><td data-label="Status"><span class="status s4">404</span></td>' +
      `<td data-label="Code"><a href="/portal/errors/${code}">${code}</a></td>` +
      '<td data-label="Duration" class="num">\\d+\\.\\d ms</td>' +
      `<td data-label="Request id"><a href="${LOG(ann.clientId)}/second-call" class="rid"`,
  );
  assert.match(log.body, row);
  assert.match(log.body, /<label for="log-status">Status<\/label>/);
  assert.match(log.body, /<label for="log-request-id">Request id/);
  assert.match(log.body, /<form method="get" action="[^"]+\/requests"/);

  const dashboard = await getPage(api, '/portal/dashboard', ann.cookie);
  assert.equal(linkOf(dashboard.body, 'Request log'), LOG(ann.clientId));
  assert.equal(linkOf(dashboard.body, 'Usage'), `/portal/dashboard/apps/${ann.clientId}/usage`);
  assert.equal(linkOf(log.body, 'Usage'), `/portal/dashboard/apps/${ann.clientId}/usage`);
  assert.match(log.body, /<a href="[^"]+\/requests" aria-current="page">Request log<\/a>/);
});

test('the log filters by status class and request id, keeping the filters in the form', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const now = Date.now();
  await writeEntries(api, ann, [
    { time: now - 4000, status: 200, requestId: 'ok-1' },
    { time: now - 3000, status: 404, requestId: 'missing-1' },
    { time: now - 2000, status: 503, requestId: 'down-1' },
    { time: now - 1000, status: 400, requestId: 'bad-1' },
  ]);
  const cases: Array<[string, string[]]> = [
    ['', ['bad-1', 'down-1', 'missing-1', 'ok-1']],
    ['?status=all', ['bad-1', 'down-1', 'missing-1', 'ok-1']],
    ['?status=4xx', ['bad-1', 'missing-1']],
    ['?status=4XX', ['bad-1', 'missing-1']],
    ['?status=5xx', ['down-1']],
    ['?status=2xx', ['ok-1']],
    ['?status=3xx', []],
    ['?request_id=missing-1', ['missing-1']],
    ['?status=4xx&request_id=down-1', []],
    ['?status=&request_id=', ['bad-1', 'down-1', 'missing-1', 'ok-1']],
  ];
  for (const [query, ids] of cases) {
    const page = await getPage(api, `${LOG(ann.clientId)}${query}`, ann.cookie);
    assert.equal(page.statusCode, 200, query);
    assert.deepEqual(shownIds(page.body), ids, query);
  }
  const filtered = await getPage(api, `${LOG(ann.clientId)}?status=4xx&request_id=nothing`, ann.cookie);
  assert.match(filtered.body, /<option value="4xx" selected>4xx<\/option>/);
  assert.match(filtered.body, /name="request_id"[^>]* value="nothing"/);
  assert.match(filtered.body, /No request of this app matches these filters/);
});

test('a query the form could not send answers 400 with a message and the typed values', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  await writeEntries(api, ann, [{ time: Date.now(), status: 200, requestId: 'ok-1' }]);
  const cases: Array<[string, RegExp]> = [
    ['?status=7xx', /&quot;7xx&quot; is not a status class: choose all, 2xx, 3xx, 4xx or 5xx\./],
    ['?status=4', /&quot;4&quot; is not a status class/],
    ['?before=abc', /&quot;abc&quot; is not a page of the log: follow the Older link/],
    ['?before=0', /&quot;0&quot; is not a page of the log/],
    ['?before=-5', /&quot;-5&quot; is not a page of the log/],
    ['?request_id=two%20words', /&quot;two words&quot; is not a request id: one is 1 to 128 letters/],
    ['?status=2xx&status=4xx', /Give each filter once/],
    [`?status=${'x'.repeat(500)}`, new RegExp(`&quot;${'x'.repeat(40)}…&quot; is not a status class`)],
    // A character HTML must not carry raw is echoed as \uXXXX.
    ['?status=%00%01', /&quot;\\u0000\\u0001&quot; is not a status class/],
  ];
  for (const [query, message] of cases) {
    const page = await getPage(api, `${LOG(ann.clientId)}${query}`, ann.cookie);
    assert.equal(page.statusCode, 400, query);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /<p class="alert" role="alert">/, query);
    assert.match(page.body, message, query);
    assert.deepEqual(shownIds(page.body), [], `${query}: no rows under a refused filter`);
    assert.ok(!page.body.includes('\u0000') && !page.body.includes('\u0001'), `${query}: no raw NUL or U+0001`);
  }
  const typed = await getPage(api, `${LOG(ann.clientId)}?status=9xx&request_id=kept`, ann.cookie);
  assert.match(typed.body, /name="request_id"[^>]* value="kept"/);
});

test('the log pages 50 at a time with the keyset cursor, the filters kept on Older and Newest', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const now = Date.now() - 200000;
  const entries = Array.from({ length: 120 }, (_, index) => ({
    time: now + index * 1000,
    status: index % 2 === 0 ? 200 : 404,
    requestId: `req-${String(index).padStart(3, '0')}`,
  }));
  await writeEntries(api, ann, entries);
  const expected = entries.map((entry) => entry.requestId).reverse();

  const first = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.deepEqual(shownIds(first.body), expected.slice(0, 50));
  assert.equal(linkOf(first.body, 'Newest'), undefined);
  const older = linkOf(first.body, 'Older requests');
  assert.ok(older?.startsWith(`${LOG(ann.clientId)}?before=`), older);
  const second = await getPage(api, older!, ann.cookie);
  assert.deepEqual(shownIds(second.body), expected.slice(50, 100));
  assert.equal(linkOf(second.body, 'Newest'), LOG(ann.clientId));
  const third = await getPage(api, linkOf(second.body, 'Older requests')!, ann.cookie);
  assert.deepEqual(shownIds(third.body), expected.slice(100));
  assert.equal(linkOf(third.body, 'Older requests'), undefined, 'the last page has no Older link');

  const failures = await getPage(api, `${LOG(ann.clientId)}?status=4xx`, ann.cookie);
  const odd = expected.filter((id) => Number(id.slice(4)) % 2 === 1);
  assert.deepEqual(shownIds(failures.body), odd.slice(0, 50));
  const olderFailures = linkOf(failures.body, 'Older requests')!;
  assert.match(olderFailures, /^[^?]+\?status=4xx&before=\d+$/);
  const next = await getPage(api, olderFailures, ann.cookie);
  assert.deepEqual(shownIds(next.body), odd.slice(50));
  assert.equal(linkOf(next.body, 'Newest'), `${LOG(ann.clientId)}?status=4xx`);
});

test('an empty log says so and is no error', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const page = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /No requests yet/);
});

test("a request's details show every field, the error message and its code's page", async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const missing = await call(api, ann, `/v2/dogs/no-such-dog?access_token=${ann.token}`, 'trace-404');
  assert.equal(missing.statusCode, 404);
  await api.app.requestRecorder.flush();
  const { code, message } = missing.json() as { code: number; message: string };

  const details = await getPage(api, `${LOG(ann.clientId)}/trace-404`, ann.cookie);
  assert.equal(details.statusCode, 200);
  assert.equal(details.headers['cache-control'], 'no-store');
  assert.ok(!details.body.includes(ann.token), 'the token is masked');
  const field = (name: string) => new RegExp(`<dt>${name}</dt><dd>(.*?)</dd>`).exec(details.body)?.[1];
  assert.equal(field('Request id'), '<code>trace-404</code>');
  assert.match(field('Time')!, /^<time datetime="[^"]+Z">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} UTC<\/time>$/);
  assert.equal(field('Method'), 'GET');
  assert.equal(field('Path and query'), '<code class="long">/v2/dogs/no-such-dog?access_token=***</code>');
  assert.equal(field('API version'), 'v2');
  assert.equal(field('Status'), '404 <span class="muted">(client error)</span>');
  assert.match(field('Code')!, new RegExp(`^<a href="/portal/errors/${code}">${code} · `));
  assert.equal(field('Message'), message.replaceAll("'", '&#39;').replaceAll('"', '&quot;'));
  assert.match(field('Duration')!, /^\d+\.\d{3} ms$/);
  assert.equal(field('App'), `Shelter app <code>${ann.clientId}</code>`);
  assert.equal(linkOf(details.body, 'Back to the request log'), LOG(ann.clientId));
  assert.equal((await getPage(api, `/portal/errors/${code}`)).statusCode, 200);
});

test('a long path is cut in the log and in the heading of its details, which show it whole in a box', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const path = `/v2/dogs?${'a'.repeat(3000)}`;
  await writeEntries(api, ann, [{ time: Date.now(), status: 400, requestId: 'long-1', path }]);
  const cut = `${path.slice(0, 120)}…`;
  const log = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.ok(log.body.includes(`<td data-label="Path" class="path"><code>${cut}</code></td>`));
  assert.ok(!log.body.includes(path));
  const details = await getPage(api, `${LOG(ann.clientId)}/long-1`, ann.cookie);
  assert.ok(details.body.includes(`<code>GET ${cut}</code></h2>`));
  assert.ok(details.body.includes(`<dt>Path and query</dt><dd><code class="long">${path}</code></dd>`));
});

test("another account's app or request, and an unknown one, answer the portal's 404 and reveal nothing", async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  const bob = await developer(api, 'bob@example.com');
  assert.equal((await call(api, bob, '/v2/dogs', 'bobs-call')).statusCode, 200);
  assert.equal((await call(api, ann, '/v2/dogs', 'anns-call')).statusCode, 200);
  await api.app.requestRecorder.flush();

  const paths = [
    LOG(bob.clientId),
    `${LOG(bob.clientId)}?status=7xx`,
    `${LOG(bob.clientId)}/bobs-call`,
    `/portal/dashboard/apps/${bob.clientId}/usage`,
    `${LOG(ann.clientId)}/bobs-call`,
    `${LOG(ann.clientId)}/no-such-request`,
    `${LOG(ann.clientId)}/not%20an%20id`,
    '/portal/dashboard/apps/no-such-app/requests',
    '/portal/dashboard/apps/no-such-app/usage',
  ];
  for (const path of paths) {
    const page = await getPage(api, path, ann.cookie);
    assert.equal(page.statusCode, 404, path);
    assert.match(page.body, /<h1>Page not found<\/h1>/, path);
    assert.equal(page.headers['cache-control'], 'no-store', path);
    assert.ok(!page.body.includes('bobs-call') || path.includes('bobs-call'), path);
    assert.ok(!page.body.includes('Shelter app'), `${path}: no app name`);
  }
  const mine = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.deepEqual(shownIds(mine.body), ['anns-call']);
  const bobs = await getPage(api, `${LOG(ann.clientId)}?request_id=bobs-call`, ann.cookie);
  assert.deepEqual(shownIds(bobs.body), []);
});

test('the pages need a session: 303 to the login page, which comes back', async (t) => {
  const api = await build(t);
  const ann = await developer(api, 'ann@example.com');
  for (const path of [LOG(ann.clientId), `${LOG(ann.clientId)}/x`, `/portal/dashboard/apps/${ann.clientId}/usage`]) {
    const page = await getPage(api, `${path}?status=4xx`);
    assert.equal(page.statusCode, 303, path);
    assert.equal(page.headers.location, `/portal/login?next=${encodeURIComponent(`${path}?status=4xx`)}`);
    assert.equal(page.headers['cache-control'], 'no-store');
  }
  const posted = await api.request({ method: 'POST', url: LOG(ann.clientId), token: null });
  assert.equal(posted.statusCode, 400);
  assert.equal(posted.headers.allow, 'GET, HEAD');
});

test('with REQUEST_LOG=off the log page says nothing is recorded', async (t) => {
  const api = await build(t, { REQUEST_LOG: 'off' });
  const ann = await developer(api, 'ann@example.com');
  const page = await getPage(api, LOG(ann.clientId), ann.cookie);
  assert.equal(page.statusCode, 200);
  assert.match(page.body, /The request log is switched off on this server/);
});
