// The request log's storage on the test's backend (SQLite, and PostgreSQL in npm test's second run): pages newest
// first, filters, one account never reading another's entries, usage buckets by status class, pruning by age and count.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { build } from '../helper.js';
import { DAY_MS, HOUR_MS, type RequestLogEntry } from '../../src/storage/request-log-store.js';
import { tenantScope } from '../../src/storage/storage.js';
import { batchOf } from '../../src/storage/request-log-records.js';

const NOW = Date.UTC(2026, 10, 25, 12, 30);

function entry(fields: Partial<RequestLogEntry> & Pick<RequestLogEntry, 'requestId'>): RequestLogEntry {
  return {
    tenantId: 'tenant-a',
    clientId: 'app-1',
    time: NOW,
    method: 'GET',
    path: '/v2/dogs',
    version: 2,
    status: 200,
    code: null,
    message: null,
    durationMs: 1.25,
    ...fields,
  };
}

test('a batch is listed per app newest first, in keyset pages, filtered by status class and request id', async (t) => {
  const { storage } = await build(t);
  const log = storage.requestLog;
  const statuses = [200, 404, 201, 500, 304, 400, 200];
  await log.insertBatch(
    batchOf(statuses.map((status, index) => entry({ requestId: `r${index}`, status, time: NOW + index }))),
  );
  await log.insertBatch(batchOf([entry({ requestId: 'other-app', clientId: 'app-2' })]));
  const scope = tenantScope('tenant-a');

  const first = await log.list(scope, { clientId: 'app-1', limit: 3 });
  assert.deepEqual(
    first.entries.map((each) => each.requestId),
    ['r6', 'r5', 'r4'],
  );
  assert.ok(first.next !== undefined);
  const second = await log.list(scope, { clientId: 'app-1', limit: 3, before: first.next });
  assert.deepEqual(
    second.entries.map((each) => each.requestId),
    ['r3', 'r2', 'r1'],
  );
  const last = await log.list(scope, { clientId: 'app-1', limit: 3, before: second.next });
  assert.deepEqual(
    last.entries.map((each) => each.requestId),
    ['r0'],
  );
  assert.equal(last.next, undefined);

  const errors = await log.list(scope, { clientId: 'app-1', statusClass: 4, limit: 10 });
  assert.deepEqual(
    errors.entries.map((each) => [each.requestId, each.status]),
    [
      ['r5', 400],
      ['r1', 404],
    ],
  );
  const one = await log.list(scope, { clientId: 'app-1', requestId: 'r3', limit: 10 });
  assert.deepEqual(
    one.entries.map((each) => each.status),
    [500],
  );
  const app2 = await log.list(scope, { clientId: 'app-2', limit: 10 });
  assert.deepEqual(
    app2.entries.map((each) => each.requestId),
    ['other-app'],
  );
});

test('an entry is read back whole, and only by its own account', async (t) => {
  const { storage } = await build(t);
  const log = storage.requestLog;
  const failed = entry({
    requestId: 'req-42',
    method: 'POST',
    path: '/v1/dogs?access_token=***',
    version: 1,
    status: 400,
    code: 2001,
    message: 'The field "name" is required.',
    durationMs: 0.375,
  });
  await log.insertBatch(batchOf([failed]));
  const [found] = (await log.list(tenantScope('tenant-a'), { clientId: 'app-1', requestId: 'req-42', limit: 1 }))
    .entries;
  assert.ok(found);
  const { seq, ...rest } = found;
  assert.equal(typeof seq, 'number');
  assert.deepEqual(rest, failed);
  const theirs = await log.list(tenantScope('tenant-b'), { clientId: 'app-1', limit: 10 });
  assert.deepEqual(theirs.entries, []);
  const byId = await log.list(tenantScope('tenant-b'), { clientId: 'app-1', requestId: 'req-42', limit: 10 });
  assert.deepEqual(byId.entries, []);
});

test('usage counts one app per hour (or day) and status class, from the given time on', async (t) => {
  const { storage } = await build(t);
  const log = storage.requestLog;
  const hour = Math.floor(NOW / HOUR_MS) * HOUR_MS;
  await log.insertBatch(
    batchOf([
      entry({ requestId: 'a', time: hour + 1, status: 200 }),
      entry({ requestId: 'b', time: hour + 2, status: 201 }),
      entry({ requestId: 'c', time: hour + 3, status: 404 }),
      entry({ requestId: 'd', time: hour - HOUR_MS, status: 503 }),
      entry({ requestId: 'e', time: hour - 2 * HOUR_MS, status: 304 }),
      entry({ requestId: 'too old', time: hour - 30 * HOUR_MS, status: 200 }),
      entry({ requestId: 'other app', clientId: 'app-2', time: hour + 4 }),
      entry({ requestId: 'other account', tenantId: 'tenant-b', time: hour + 5 }),
    ]),
  );
  const scope = tenantScope('tenant-a');
  assert.deepEqual(await log.usage(scope, 'app-1', HOUR_MS, NOW - 24 * HOUR_MS), [
    { start: hour - 2 * HOUR_MS, statusClass: 3, count: 1 },
    { start: hour - HOUR_MS, statusClass: 5, count: 1 },
    { start: hour, statusClass: 2, count: 2 },
    { start: hour, statusClass: 4, count: 1 },
  ]);
  const day = Math.floor(NOW / DAY_MS) * DAY_MS;
  assert.deepEqual(await log.usage(scope, 'app-1', DAY_MS, NOW - 30 * DAY_MS), [
    { start: day - DAY_MS, statusClass: 2, count: 1 },
    { start: day, statusClass: 2, count: 2 },
    { start: day, statusClass: 3, count: 1 },
    { start: day, statusClass: 4, count: 1 },
    { start: day, statusClass: 5, count: 1 },
  ]);
});

test('pruning deletes entries older than the cut-off, and all but the newest of each app given', async (t) => {
  const { storage } = await build(t);
  const log = storage.requestLog;
  const old = Array.from({ length: 3 }, (_, index) => entry({ requestId: `old${index}`, time: NOW - 8 * DAY_MS }));
  const many = Array.from({ length: 6 }, (_, index) => entry({ requestId: `new${index}`, time: NOW + index }));
  const otherApp = Array.from({ length: 6 }, (_, index) => entry({ requestId: `b${index}`, clientId: 'app-2' }));
  const otherAccount = Array.from({ length: 6 }, (_, index) => entry({ requestId: `c${index}`, tenantId: 'tenant-b' }));
  await log.insertBatch(batchOf([...old, ...many, ...otherApp, ...otherAccount]));

  const deleted = await log.prune(NOW - 7 * DAY_MS, [{ tenantId: 'tenant-a', clientId: 'app-1' }], 4);
  assert.equal(deleted, 3 + 2);
  const kept = await log.list(tenantScope('tenant-a'), { clientId: 'app-1', limit: 100 });
  assert.deepEqual(
    kept.entries.map((each) => each.requestId),
    ['new5', 'new4', 'new3', 'new2'],
  );
  // Apps not named keep every entry younger than the cut-off.
  assert.equal((await log.list(tenantScope('tenant-a'), { clientId: 'app-2', limit: 100 })).entries.length, 6);
  assert.equal((await log.list(tenantScope('tenant-b'), { clientId: 'app-1', limit: 100 })).entries.length, 6);
  // An app under its limit loses nothing.
  assert.equal(await log.prune(NOW - 7 * DAY_MS, [{ tenantId: 'tenant-b', clientId: 'app-1' }], 10), 0);
  // Without a cut-off, only the count.
  await log.insertBatch(batchOf([entry({ requestId: 'older', time: NOW - 9 * DAY_MS, clientId: 'app-3' })]));
  assert.equal(await log.prune(undefined, [{ tenantId: 'tenant-a', clientId: 'app-2' }], 5), 1);
  assert.equal((await log.list(tenantScope('tenant-a'), { clientId: 'app-3', limit: 100 })).entries.length, 1);
});

test('usage outlives the log: its hourly counts stay when entries go by age or count, until their own 31 days', async (t) => {
  const { storage } = await build(t);
  const log = storage.requestLog;
  const day = Math.floor(NOW / DAY_MS) * DAY_MS;
  const scope = tenantScope('tenant-a');
  // 12 requests ten days ago (past the log's 7 days), 3 today; the log keeps at most 2 per app.
  const old = Array.from({ length: 12 }, (_, index) => entry({ requestId: `old${index}`, time: day - 10 * DAY_MS }));
  const today = Array.from({ length: 3 }, (_, index) => entry({ requestId: `new${index}`, time: day + index }));
  await log.insertBatch(batchOf(old));
  await log.insertBatch(batchOf(today));
  await log.prune(NOW - 7 * DAY_MS, [{ tenantId: 'tenant-a', clientId: 'app-1' }], 2, NOW - 31 * DAY_MS);
  assert.equal((await log.list(scope, { clientId: 'app-1', limit: 100 })).entries.length, 2);
  const usage = [
    { start: day - 10 * DAY_MS, statusClass: 2, count: 12 },
    { start: day, statusClass: 2, count: 3 },
  ];
  assert.deepEqual(await log.usage(scope, 'app-1', DAY_MS, NOW - 30 * DAY_MS), usage);
  // Two flushes in one hour add up in one row.
  await log.insertBatch(batchOf([entry({ requestId: 'late', time: day + 5, status: 404 })]));
  assert.deepEqual(await log.usage(scope, 'app-1', DAY_MS, NOW - 30 * DAY_MS), [
    ...usage,
    { start: day, statusClass: 4, count: 1 },
  ]);
  // The counts' own horizon.
  await log.prune(undefined, [], 2, day - 5 * DAY_MS);
  assert.deepEqual(await log.usage(scope, 'app-1', DAY_MS, NOW - 30 * DAY_MS), [
    { start: day, statusClass: 2, count: 3 },
    { start: day, statusClass: 4, count: 1 },
  ]);
});
