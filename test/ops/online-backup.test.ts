// SIGUSR2 on SQLite: an online backup that holds every answered write, written while the service goes on answering.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import { dogs } from '../../src/resources/dogs.js';
import { OnlineBackup } from '../../src/storage/online-backup.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { authorize, request, startService, tempDataDir, waitForLog } from './process-helper.js';

test('SIGUSR2 writes a whole, checkable copy into DATA_DIR/backups while the service keeps answering', async (t) => {
  const dataDir = tempDataDir(t);
  const service = await startService(t, dataDir);
  const headers = { ...(await authorize(service)), 'content-type': 'application/json' };
  for (let i = 0; i < 20; i++) {
    const created = await request(service, {
      method: 'POST',
      path: '/v2/dogs',
      headers,
      body: JSON.stringify({ name: `Backed ${i}` }),
    });
    assert.equal(created.status, 201);
  }

  service.child.kill('SIGUSR2');
  const written = await waitForLog(service, (entry) => entry.msg === 'backup written');
  const file = String(written.file);
  assert.equal(path.dirname(file), path.join(dataDir, 'backups'));
  assert.match(path.basename(file), /^registry-\d{8}T\d{6}Z\.sqlite$/);
  assert.ok(Number(written.pages) > 0);
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'backups')), [path.basename(file)], 'no .partial is left');

  // The service still answers, and the copy is a database of its own: checkable, with every dog answered before.
  const list = await request(service, { path: '/v2/dogs?limit=1', headers });
  assert.equal(list.status, 200);
  const copy = new Database(file, { readonly: true });
  t.after(() => copy.close());
  assert.equal(copy.pragma('quick_check', { simple: true }), 'ok');
  assert.equal(copy.prepare("SELECT count(*) FROM dogs WHERE name LIKE 'Backed %'").pluck().get(), 20);
});

test('one backup at a time, and a failed one leaves no file behind', async (t) => {
  const dataDir = tempDataDir(t);
  const storage = new SqliteStorage(dataDir);
  t.after(() => storage.close());
  await storage.migrate();
  await storage.create(dogs, { kind: 'tenant', tenantId: 'tenant-a' }, { name: 'Rex' });
  const lines: Array<{ msg: string; level: number }> = [];
  const { log } = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
  });
  let now = Date.parse('2026-11-26T05:00:00.000Z');
  const backup = new OnlineBackup(
    storage as { backup(file: string): Promise<number> },
    path.join(dataDir, 'b'),
    log,
    () => now,
  );

  const [first, second] = await Promise.all([backup.run(), backup.run()]);
  assert.equal(first, path.join(dataDir, 'b', 'registry-20261126T050000Z.sqlite'));
  assert.equal(second, undefined);
  assert.ok(lines.some((line) => line.msg === 'backup requested while one is running; this request is ignored'));

  // A directory the backup cannot be written to: an error in the log, and no file, partial or whole.
  now += 1000;
  const blocked = new OnlineBackup(
    storage as { backup(file: string): Promise<number> },
    path.join(dataDir, 'b', 'registry-20261126T050000Z.sqlite', 'x'),
    log,
    () => now,
  );
  assert.equal(await blocked.run(), undefined);
  assert.ok(lines.some((line) => line.msg === 'backup failed; nothing was written' && line.level === 50));
  assert.deepEqual(fs.readdirSync(path.join(dataDir, 'b')), ['registry-20261126T050000Z.sqlite']);
});
