// The PostgreSQL connection's deadlines (deadlines.ts), on their own: an operation fails as `unavailable` once late
// and its undo runs; migrations run unwatched; a socket owing an answer in silence is destroyed, an idle one is not.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { Deadlines } from '../../src/storage/postgres/deadlines.js';
import { StorageError } from '../../src/storage/storage-error.js';

const never = new Promise<never>(() => {});
// The sweep's timer does not hold the process open (the server does); here a timer of the test's own does.
const alive = setInterval(() => {}, 1000);
after(() => clearInterval(alive));

test('an operation past its deadline fails as unavailable, and its undo runs once', async () => {
  const deadlines = new Deadlines(100);
  let undone = 0;
  const started = performance.now();
  await assert.rejects(
    deadlines.bound(never, () => (undone += 1)),
    (error: unknown) =>
      error instanceof StorageError && error.kind === 'unavailable' && /within 100 ms/.test(error.message),
  );
  const waited = performance.now() - started;
  assert.ok(waited >= 100 && waited < 1000, `failed after ${Math.round(waited)} ms`);
  await sleep(250);
  assert.equal(undone, 1);
  deadlines.stop();
});

test('an operation within its deadline gives its own outcome, and nothing is undone', async () => {
  const deadlines = new Deadlines(200);
  let undone = 0;
  assert.equal(
    await deadlines.bound(
      sleep(20).then(() => 'rows'),
      () => (undone += 1),
    ),
    'rows',
  );
  await assert.rejects(
    deadlines.bound(Promise.reject(new Error('syntax')), () => (undone += 1)),
    /syntax/,
  );
  await sleep(300);
  assert.equal(undone, 0);
  deadlines.stop();
});

test('while unwatched (migrations), an operation has no deadline; without a deadline (0), none either', async () => {
  const deadlines = new Deadlines(50);
  const slow = await deadlines.unwatched(() => deadlines.bound(sleep(200).then(() => 'migrated')));
  assert.equal(slow, 'migrated');
  deadlines.stop();
  const none = new Deadlines(0);
  assert.equal(await none.bound(sleep(100).then(() => 'seeded')), 'seeded');
});

/** A server that reads what it is sent and answers `reply` to each chunk, or nothing. */
async function server(reply: boolean): Promise<{ port: number; close: () => void }> {
  const sockets = new Set<net.Socket>();
  const listening = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => reply && socket.write('ok'));
    socket.on('error', () => {});
  });
  listening.listen(0, '127.0.0.1');
  await once(listening, 'listening');
  return {
    port: (listening.address() as net.AddressInfo).port,
    close: () => {
      for (const socket of sockets) socket.destroy();
      listening.close();
    },
  };
}

test('a socket that wrote and hears nothing for the deadline is destroyed with ETIMEDOUT', async (t) => {
  const silent = await server(false);
  t.after(silent.close);
  const deadlines = new Deadlines(150);
  t.after(() => deadlines.stop());
  const socket = deadlines.watch(new net.Socket()).connect(silent.port, '127.0.0.1');
  await once(socket, 'connect');
  socket.write('SELECT 1');
  const [error] = (await once(socket, 'error')) as [NodeJS.ErrnoException];
  assert.equal(error.code, 'ETIMEDOUT');
  assert.ok(socket.destroyed);
});

test('an idle socket, and one whose last write was answered, are left open', async (t) => {
  const answering = await server(true);
  t.after(answering.close);
  const deadlines = new Deadlines(100);
  t.after(() => deadlines.stop());
  const idle = deadlines.watch(new net.Socket()).connect(answering.port, '127.0.0.1');
  const answered = deadlines.watch(new net.Socket()).connect(answering.port, '127.0.0.1');
  t.after(() => (idle.destroy(), answered.destroy()));
  await Promise.all([once(idle, 'connect'), once(answered, 'connect')]);
  answered.write('SELECT 1');
  await once(answered, 'data');
  await sleep(400);
  assert.equal(idle.destroyed, false);
  assert.equal(answered.destroyed, false);
});

test('while unwatched, a silent socket owing an answer is left open', async (t) => {
  const silent = await server(false);
  t.after(silent.close);
  const deadlines = new Deadlines(100);
  t.after(() => deadlines.stop());
  await deadlines.unwatched(async () => {
    const socket = deadlines.watch(new net.Socket()).connect(silent.port, '127.0.0.1');
    t.after(() => socket.destroy());
    await once(socket, 'connect');
    socket.write('CREATE INDEX');
    await sleep(400);
    assert.equal(socket.destroyed, false);
  });
});
