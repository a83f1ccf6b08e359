// The request log's packed records: what the recorder appends comes back field for field, grouped by app.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  RecordBuffer,
  batchOf,
  offsetOf,
  olderThan,
  packedRow,
  unpack,
} from '../../src/storage/request-log-records.js';
import type { RequestLogEntry } from '../../src/storage/request-log-store.js';

const NOW = Date.UTC(2026, 10, 25, 12);

function entry(requestId: string, fields: Partial<RequestLogEntry> = {}): RequestLogEntry {
  return {
    tenantId: 'acct',
    clientId: 'app',
    time: NOW,
    method: 'GET',
    path: '/v2/dogs',
    version: 2,
    status: 200,
    code: null,
    message: null,
    durationMs: 1.25,
    requestId,
    ...fields,
  };
}

test('every field comes back as appended: an error with its code and message, non-ASCII text, durations to the µs', () => {
  const entries = [
    entry('ok'),
    entry('failed', {
      time: NOW + 1,
      method: 'DELETE',
      path: '/v1/dogs/abc?name=Zoë&access_token=***',
      version: 1,
      status: 404,
      code: 4000,
      message: 'There is no dog with the id "abc" — it may have been deleted.',
      durationMs: 12.3456789,
    }),
  ];
  const batch = batchOf(entries);
  assert.equal(batch.size, 2);
  assert.deepEqual(batch.entries(), [entries[0], { ...entries[1], durationMs: 12.346 }]);
});

test("a batch's rows: one per app, records in order, counts by class and the time range", () => {
  const batch = batchOf([
    entry('a1', { time: NOW }),
    entry('b1', { clientId: 'other', status: 500, code: 9000, message: 'x' }),
    entry('a2', { time: NOW + 5, status: 404, code: 4000, message: 'gone' }),
    entry('a3', { time: NOW + 9, status: 304 }),
  ]);
  const rows = batch.apps();
  assert.deepEqual(
    rows.map(({ clientId, count, firstTime, lastTime, classes }) => ({
      clientId,
      count,
      firstTime,
      lastTime,
      classes,
    })),
    [
      { clientId: 'app', count: 3, firstTime: NOW, lastTime: NOW + 9, classes: [1, 1, 1, 0] },
      { clientId: 'other', count: 1, firstTime: NOW, lastTime: NOW, classes: [0, 0, 0, 1] },
    ],
  );
  assert.deepEqual(
    unpack(rows[0]!.bytes, { tenantId: 'acct', clientId: 'app' }, 7).map(({ seq, requestId }) => [seq, requestId]),
    [
      [7, 'a1'],
      [8, 'a2'],
      [9, 'a3'],
    ],
  );
});

test('two tokens of one app (two caller objects) make one row, in the order the requests came', () => {
  const buffer = new RecordBuffer(10);
  const first = { tenantId: 'acct', clientId: 'app' };
  const second = { tenantId: 'acct', clientId: 'app' };
  for (const [caller, id] of [
    [first, 'r1'],
    [second, 'r2'],
    [first, 'r3'],
  ] as const) {
    buffer.append(caller, NOW, 'GET', '/v2/dogs', id, 200, 0, undefined, 1, 2);
  }
  const rows = buffer.apps();
  assert.equal(rows.length, 1);
  assert.deepEqual(
    unpack(rows[0]!.bytes, first, 1).map((stored) => stored.requestId),
    ['r1', 'r2', 'r3'],
  );
  assert.deepEqual(
    buffer.counts().map(([caller, count]) => [caller.clientId, count]),
    [['app', 3]],
  );
});

test('a path longer than the log keeps is cut with an ellipsis; the buffer says when it has no room', () => {
  const long = `/v2/dogs?name=${'x'.repeat(20000)}`;
  const [stored] = batchOf([entry('long', { path: long })]).entries();
  assert.equal(stored!.path.length, 16384);
  assert.ok(stored!.path.endsWith('x…'));
  const buffer = new RecordBuffer(2);
  assert.equal(buffer.hasRoom, true);
  buffer.append({ tenantId: 'a', clientId: 'b' }, NOW, 'GET', '/', 'r1', 200, 0, undefined, 1, 2);
  buffer.append({ tenantId: 'a', clientId: 'b' }, NOW, 'GET', '/', 'r2', 200, 0, undefined, 1, 2);
  assert.equal(buffer.hasRoom, false, 'its record count is reached');
  buffer.clear();
  assert.equal(buffer.hasRoom, true);
  assert.equal(buffer.size, 0);
});

test('pruning helpers: how many records are older than a time, where a trimmed row starts, its new summary', () => {
  const [row] = batchOf([entry('r1', { time: NOW }), entry('r2', { time: NOW + 10 }), entry('r3', { time: NOW + 20 })])
    .apps()
    .map((app) => app.bytes);
  assert.equal(olderThan(row!, NOW + 15), 2);
  assert.equal(olderThan(row!, NOW), 0);
  const rest = row!.subarray(offsetOf(row!, 2));
  const summary = packedRow({ tenantId: 'acct', clientId: 'app' }, rest);
  assert.deepEqual([summary.count, summary.firstTime, summary.lastTime], [1, NOW + 20, NOW + 20]);
  assert.equal(offsetOf(row!, 5), row!.length);
});
