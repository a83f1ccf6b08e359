// The real process on SIGTERM writes the request log's buffer before it closes the database: no request is lost.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import Database from 'better-sqlite3';
import { unpack } from '../../src/storage/request-log-records.js';
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
  // A row packs a batch of one app (src/storage/request-log-records.ts).
  const rows = (
    db.prepare('SELECT tenant_id, client_id, first_seq, entries FROM request_log ORDER BY first_seq').all() as Array<{
      tenant_id: string;
      client_id: string;
      first_seq: number;
      entries: Buffer;
    }>
  ).flatMap((row) => unpack(row.entries, { tenantId: row.tenant_id, clientId: row.client_id }, row.first_seq));
  assert.deepEqual(
    rows.map((row) => [row.requestId, row.path, row.status]),
    ids.map((id, index) => [id, `/v2/dogs?limit=${index + 1}`, 200]),
  );
});
