// The real process on SIGTERM writes the request log's buffer before it closes the database: no request is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { authorize, request, startService, tempDataDir } from './process-helper.js';

test('SIGTERM flushes the request log: every request answered just before it is in the database', async (t) => {
  const service = await startService(t, tempDataDir(t));
  const auth = await authorize(service);
  const ids: string[] = [];
  for (let index = 0; index < 5; index += 1) {
    const answer = await request(service, { path: `/v2/dogs?limit=${index + 1}`, headers: auth });
    assert.equal(answer.status, 200);
    ids.push(String(answer.headers['x-request-id']));
  }
  // Well within the one-second flush timer: what is logged now comes from the shutdown's flush.
  service.child.kill('SIGTERM');
  assert.deepEqual(await service.exited, { code: 0, signal: null });

  const db = new Database(path.join(service.dataDir, 'registry.sqlite'), { readonly: true });
  t.after(() => db.close());
  const rows = db
    .prepare(
      // A row packs a batch of one app: [time, method, path, version, status, code, message, duration, request id].
      "SELECT json_extract(e.value, '$[8]') AS request_id, json_extract(e.value, '$[2]') AS path, " +
        "json_extract(e.value, '$[4]') AS status FROM request_log, json_each(request_log.entries) AS e " +
        'ORDER BY request_log.first_seq, e.key',
    )
    .all() as Array<{
    request_id: string;
    path: string;
    status: number;
  }>;
  assert.deepEqual(
    rows.map((row) => [row.request_id, row.path, row.status]),
    ids.map((id, index) => [id, `/v2/dogs?limit=${index + 1}`, 200]),
  );
});
