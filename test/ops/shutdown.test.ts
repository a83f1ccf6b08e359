// The real process on SIGTERM: it stops accepting, finishes the request in flight, closes the database, exits 0.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { eventually, request, startService, tempDataDir, waitForLog, authorize } from './process-helper.js';

test('SIGTERM stops accepting, lets the request in flight finish, closes the database and exits 0', async (t) => {
  const dataDir = tempDataDir(t);
  const service = await startService(t, dataDir);
  const auth = await authorize(service);

  // A POST whose headers have arrived but whose body has not: a request in flight.
  const socket = net.connect(service.port, '127.0.0.1');
  t.after(() => socket.destroy());
  let answer = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
  socket.write(
    'POST /v1/dogs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n' +
      `Content-Length: 8\r\nX-Request-Id: in-flight-1\r\nAuthorization: ${auth.authorization}\r\n\r\nname=`,
  );
  await waitForLog(service, (entry) => entry.reqId === 'in-flight-1' && entry.msg === 'incoming request');

  service.child.kill('SIGTERM');
  await waitForLog(service, (entry) => typeof entry.msg === 'string' && entry.msg.startsWith('shutting down'));
  await eventually('the server refusing new connections', async () => {
    try {
      await request(service, { path: '/healthz' });
      return false;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'ECONNREFUSED';
    }
  });
  assert.equal(service.child.exitCode, null, 'the process waits for the request in flight');

  socket.write('Rex');
  await eventually('the process exiting', async () => service.child.exitCode !== null);
  assert.deepEqual(await service.exited, { code: 0, signal: null });

  const [head = '', body = ''] = answer.split('\r\n\r\n');
  assert.match(head, /^HTTP\/1\.1 200 OK\r\n/);
  assert.match(head, /\r\nx-request-id: in-flight-1\r\n/i);
  assert.equal(JSON.parse(body).dog.name, 'Rex');
  await waitForLog(service, (entry) => entry.msg === 'stopped: requests in flight finished, database closed');
  // SQLite folds the WAL back into the database and removes it only when the last connection closes cleanly.
  assert.ok(fs.existsSync(path.join(dataDir, 'registry.sqlite')));
  assert.equal(fs.existsSync(path.join(dataDir, 'registry.sqlite-wal')), false, 'the database was closed');
});
